// The bench's cold start with glibc's malloc on transparent huge pages: the GLIBC_TUNABLES it sets
// keeps the user's other tunables.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withHugePageMalloc } from '../../src/lab/bench.js';

test('withHugePageMalloc adds the malloc tunable, keeps the others and replaces an earlier value', () => {
  assert.equal(withHugePageMalloc(undefined), 'glibc.malloc.hugetlb=1');
  assert.equal(withHugePageMalloc(''), 'glibc.malloc.hugetlb=1');
  assert.equal(withHugePageMalloc('glibc.malloc.arena_max=2'), 'glibc.malloc.arena_max=2:glibc.malloc.hugetlb=1');
  assert.equal(withHugePageMalloc('glibc.malloc.hugetlb=0:glibc.pthread.rseq=0'), 'glibc.pthread.rseq=0:glibc.malloc.hugetlb=1');
});
