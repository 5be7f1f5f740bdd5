// Splits: train and val never render the held-out templates and palettes; test does, often; pair
// streams differ between splits even with the same seed. Pure checks, no browser.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HELD_OUT_PALETTES, paletteById, paletteIds } from '../../src/data/colors.js';
import { pairId } from '../../src/data/generate.js';
import { Rng, hashString } from '../../src/data/rng.js';
import { ScreenBuilder } from '../../src/data/screen.js';
import {
  HELD_OUT_TEMPLATES,
  VAL_HELD_OUT_TEMPLATES,
  buildTemplate,
  heldOutTemplates,
  leanTemplates,
  templateNames,
} from '../../src/data/templates.js';

test('train and val never see the held-out templates and palettes; test has them all', () => {
  for (const split of ['train', 'val']) {
    assert.deepEqual(
      templateNames(split).filter((t) => HELD_OUT_TEMPLATES.has(t)),
      [],
    );
    assert.deepEqual(
      paletteIds(split).filter((p) => HELD_OUT_PALETTES.has(p)),
      [],
    );
    assert.ok(templateNames(split).length >= 10);
    assert.ok(paletteIds(split).length >= 8);
  }
  for (const t of HELD_OUT_TEMPLATES) assert.ok(templateNames('test').includes(t));
  for (const p of HELD_OUT_PALETTES) assert.ok(paletteIds('test').includes(p));
  assert.ok(HELD_OUT_TEMPLATES.size >= 2 && HELD_OUT_PALETTES.size >= 2);
});

test('template set 2: val holds out its own templates, train gains five, test and set 1 stay as they were', () => {
  const set1 = { train: templateNames('train', 1), val: templateNames('val', 1), test: templateNames('test', 1) };
  assert.equal(set1.test.length, 13);
  assert.deepEqual(set1.val, set1.train);
  assert.deepEqual(templateNames('test', 2), set1.test);
  assert.deepEqual(heldOutTemplates('test', 2), heldOutTemplates('test', 1));
  assert.deepEqual(heldOutTemplates('val', 1), []);
  assert.deepEqual(heldOutTemplates('train', 2), []);
  const train2 = templateNames('train', 2);
  assert.deepEqual(train2.slice(0, set1.train.length), set1.train);
  assert.equal(train2.length, set1.train.length + 5);
  for (const t of VAL_HELD_OUT_TEMPLATES) {
    assert.ok(!train2.includes(t) && !set1.test.includes(t), t);
    assert.ok(templateNames('val', 2).includes(t) && heldOutTemplates('val', 2).includes(t), t);
  }
  for (const t of HELD_OUT_TEMPLATES) assert.ok(!templateNames('val', 2).includes(t), t);
});

test('template set 3: train gains five more templates; val, test and sets 1-2 stay as they were', () => {
  const train2 = templateNames('train', 2);
  const train3 = templateNames('train', 3);
  assert.deepEqual(train3.slice(0, train2.length), train2);
  assert.equal(train3.length, train2.length + 5);
  assert.deepEqual(templateNames('val', 3), templateNames('val', 2));
  assert.deepEqual(heldOutTemplates('val', 3), heldOutTemplates('val', 2));
  assert.deepEqual(templateNames('test', 3), templateNames('test', 1));
  assert.deepEqual(heldOutTemplates('test', 3), heldOutTemplates('test', 1));
  assert.deepEqual(leanTemplates('train', 3), train3.slice(train2.length));
  assert.deepEqual(leanTemplates('train', 2), []);
  for (const split of ['val', 'test'])
    for (const set of [1, 2, 3, 4] as const) assert.deepEqual(leanTemplates(split, set), heldOutTemplates(split, set));
  for (const t of train3.slice(train2.length)) {
    assert.ok(!templateNames('val', 3).includes(t) && !templateNames('test', 3).includes(t), t);
    assert.ok(!HELD_OUT_TEMPLATES.has(t) && !VAL_HELD_OUT_TEMPLATES.has(t), t);
  }
});

test('template set 4: train gains five more again and leans on them; val and test stay as they were', () => {
  const train3 = templateNames('train', 3);
  const train4 = templateNames('train', 4);
  assert.deepEqual(train4.slice(0, train3.length), train3);
  assert.equal(train4.length, train3.length + 5);
  assert.deepEqual(leanTemplates('train', 4), train4.slice(train3.length));
  assert.deepEqual(templateNames('val', 4), templateNames('val', 2));
  assert.deepEqual(templateNames('test', 4), templateNames('test', 1));
  for (const split of ['val', 'test']) assert.deepEqual(leanTemplates(split, 4), heldOutTemplates(split, 2));
  for (const t of train4.slice(train3.length)) assert.ok(!HELD_OUT_TEMPLATES.has(t) && !VAL_HELD_OUT_TEMPLATES.has(t), t);
});

test('template set 5: train gains five more again and leans on them; val, test and the default set stay as they were', () => {
  const train4 = templateNames('train', 4);
  const train5 = templateNames('train', 5);
  assert.deepEqual(train5.slice(0, train4.length), train4);
  assert.equal(train5.length, train4.length + 5);
  assert.deepEqual(leanTemplates('train', 5), train5.slice(train4.length));
  assert.deepEqual(templateNames('val', 5), templateNames('val', 2));
  assert.deepEqual(templateNames('test', 5), templateNames('test', 1));
  for (const split of ['val', 'test']) assert.deepEqual(leanTemplates(split, 5), heldOutTemplates(split, 2));
  for (const t of train5.slice(train4.length)) assert.ok(!HELD_OUT_TEMPLATES.has(t) && !VAL_HELD_OUT_TEMPLATES.has(t), t);
  // shards made without --templates (set 4) must still come out the same
  assert.deepEqual(templateNames('train'), train4);
});

const TRAINING_ADDITIONS: [6 | 7 | 8, string[]][] = [
  [6, ['docs', 'timeline', 'upload', 'leaderboard', 'event']],
  [7, ['product', 'forecast', 'invoice', 'course', 'recipe']],
  [8, ['podcast', 'route', 'survey', 'portfolio', 'ticket']],
];
for (const [set, added] of TRAINING_ADDITIONS) {
  test(`template set ${set}: train gains five more again and leans on them; val, test and the default set stay as they were`, () => {
    const previous = templateNames('train', (set - 1) as 5 | 6 | 7);
    const names = templateNames('train', set);
    assert.deepEqual(names.slice(0, previous.length), previous);
    assert.deepEqual(names.slice(previous.length), added);
    assert.deepEqual(leanTemplates('train', set), added);
    assert.deepEqual(templateNames('val', set), templateNames('val', 2));
    assert.deepEqual(templateNames('test', set), templateNames('test', 1));
    for (const split of ['val', 'test']) assert.deepEqual(leanTemplates(split, set), heldOutTemplates(split, 2));
    for (const t of names) assert.ok(!HELD_OUT_TEMPLATES.has(t) && !VAL_HELD_OUT_TEMPLATES.has(t), t);
    for (const t of added) assert.ok(!templateNames('val', set).includes(t) && !templateNames('test', set).includes(t), t);
    assert.deepEqual(heldOutTemplates('val', set), heldOutTemplates('val', 2));
    assert.deepEqual(heldOutTemplates('test', set), heldOutTemplates('test', 1));
    assert.deepEqual(templateNames('train'), templateNames('train', 4));
  });
}

test("each set from 3 on adds five layouts no earlier set has; set 8's build at every size, each element once", () => {
  const seen = new Set<string>();
  for (const set of [1, 2, 3, 4, 5, 6, 7, 8] as const) {
    const all = new Set([...templateNames('train', set), ...templateNames('val', set), ...templateNames('test', set)]);
    const added = [...all].filter((t) => !seen.has(t));
    if (set >= 3) assert.deepEqual(added, leanTemplates('train', set), `set ${set}`);
    for (const t of all) seen.add(t);
  }
  assert.equal(seen.size, 13 + 7 + 6 * 5);
  for (const name of leanTemplates('train', 8)) {
    for (const [w, h] of [
      [1280, 800],
      [800, 600],
      [640, 480],
      [360, 640],
    ]) {
      for (let k = 0; k < 5; k++) {
        const rng = new Rng(hashString(`${name}|${w}|${k}`));
        const b = new ScreenBuilder(rng, paletteById(rng, 'light-blue'), w, h);
        const html = buildTemplate(name, b);
        const ids = b.elements.map((m) => m.id);
        assert.equal(new Set(ids).size, ids.length, `${name} ${w}x${h}: repeated element ids`);
        for (const id of ids) assert.ok(html.includes(`data-e="${id}"`), `${name} ${w}x${h}: ${id} not in the page`);
      }
    }
  }
});

test('the seeded generator is deterministic and its streams differ by split', () => {
  const a = new Rng(hashString('train|1|5|0'));
  const b = new Rng(hashString('train|1|5|0'));
  const c = new Rng(hashString('test|1|5|0'));
  const seqA = Array.from({ length: 8 }, () => a.nextUint32());
  assert.deepEqual(
    seqA,
    Array.from({ length: 8 }, () => b.nextUint32()),
  );
  assert.notDeepEqual(
    seqA,
    Array.from({ length: 8 }, () => c.nextUint32()),
  );
  assert.equal(pairId('val', 3, 42), 'val-3-000042');
});

test('Rng helpers stay in range and cover it', () => {
  const rng = new Rng(99);
  const seen = new Set<number>();
  for (let i = 0; i < 2000; i++) {
    const v = rng.int(3, 7);
    assert.ok(v >= 3 && v <= 7 && Number.isInteger(v));
    seen.add(v);
    const f = rng.float();
    assert.ok(f >= 0 && f < 1);
  }
  assert.equal(seen.size, 5);
  assert.deepEqual(rng.shuffle([1, 2, 3, 4]).sort(), [1, 2, 3, 4]);
  assert.equal(new Set(rng.sample([1, 2, 3, 4, 5], 3)).size, 3);
  assert.throws(() => rng.pick([]), /empty list/);
});
