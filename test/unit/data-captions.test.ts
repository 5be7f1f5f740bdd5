// Caption grammar properties: every change kind yields at least 3 different, well-formed captions
// with real variety; summaries fit in 20 words; the vocabulary stays small; no literal UI text.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import contract from '../../models/contract.json' with { type: 'json' };
import {
  MAX_CAPTION_WORDS,
  QUOTED_REFS,
  captionVariants,
  distanceBand,
  fillSlots,
  minimalCaption,
  positionPhrases,
  quoteOf,
  quotingVariants,
  regionCaptions,
  slotWords,
  summaryCaptions,
} from '../../src/data/captions.js';
import type { CaptionFacts } from '../../src/data/changes.js';
import { Rng } from '../../src/data/rng.js';
import { KINDS, type Kind } from '../../src/data/screen.js';
import * as W from '../../src/data/words.js';
import { randomFacts } from './caption-fixtures.js';

const WELL_FORMED = /^[a-z]+( [a-z]+)*$/;

test('the generator uses exactly the kinds of the ONNX contract, and the crops step adds "reflow"', () => {
  // "reflow" is not a change the generator makes: the crops step labels regions that only shifted
  assert.deepEqual([...KINDS, 'reflow'], contract.kinds);
});

test('every kind yields at least 3 distinct well-formed captions of at most 20 words', () => {
  const rng = new Rng(42);
  for (const kind of KINDS) {
    for (let i = 0; i < 60; i++) {
      const f = randomFacts(rng, kind);
      const caps = captionVariants(f, positionPhrases(f.box, 800, 600));
      assert.ok(caps.length >= 3, `${kind}: only ${caps.length} captions for ${JSON.stringify(f)}`);
      assert.equal(new Set(caps).size, caps.length, `${kind}: duplicate captions`);
      for (const c of caps) {
        assert.match(c, WELL_FORMED, `${kind}: malformed caption "${c}"`);
        assert.ok(c.split(' ').length <= MAX_CAPTION_WORDS, `${kind}: too long "${c}"`);
      }
    }
  }
});

test('captions vary in wording, not only in the noun phrase', () => {
  const rng = new Rng(7);
  for (const kind of KINDS.filter((k) => k !== 'none')) {
    const f = randomFacts(rng, kind);
    const caps = captionVariants(f, positionPhrases(f.box, 800, 600));
    // strip the element's noun phrase: what is left (verbs, word order) must still differ
    const skeletons = new Set(
      caps.map((c) =>
        c.replace(/^the [a-z ]*?(button|tab|badge|input|heading|text|card|item|row|avatar|icon|link|number|bar|page)\b/, 'X'),
      ),
    );
    assert.ok(skeletons.size >= 3, `${kind}: only ${skeletons.size} distinct phrasings: ${[...skeletons].join(' | ')}`);
  }
  const none = captionVariants({ kind: 'none', role: 'page', color: null, box: null, area: null }, []);
  assert.ok(none.includes('no visible change') && none.length >= 5);
});

test('move captions say direction and rough distance bands', () => {
  assert.equal(distanceBand(3), 'slight');
  assert.equal(distanceBand(7), 'slight');
  assert.equal(distanceBand(8), 'plain');
  assert.equal(distanceBand(40), 'plain');
  assert.equal(distanceBand(41), 'far');
  const base: CaptionFacts = { kind: 'move', role: 'button', color: 'blue', box: [10, 10, 60, 40], area: null };
  const slightDown = captionVariants({ ...base, dx: 0, dy: 5 }, []);
  assert.ok(
    slightDown.every((c) => /down|lower/.test(c)),
    slightDown.join(' | '),
  );
  assert.ok(
    slightDown.every((c) => /slightly|a little|a bit/.test(c)),
    slightDown.join(' | '),
  );
  const farLeft = captionVariants({ ...base, dx: -90, dy: 0 }, []);
  assert.ok(
    farLeft.every((c) => /left/.test(c) && /far|a long way|a lot|much/.test(c)),
    farLeft.join(' | '),
  );
  const plainRight = captionVariants({ ...base, dx: 20, dy: 0 }, []);
  assert.ok(
    plainRight.every((c) => /right/.test(c) && !/far|slightly|little|much|a lot/.test(c)),
    plainRight.join(' | '),
  );
});

test('colour captions name both colours or the new one', () => {
  const caps = captionVariants(
    {
      kind: 'color',
      role: 'button',
      color: 'blue',
      box: [0, 0, 50, 20],
      area: null,
      colorProp: 'background-color',
      fromColor: 'blue',
      toColor: 'red',
    },
    ['at the top left'],
  );
  assert.ok(
    caps.every((c) => c.includes('red')),
    caps.join(' | '),
  );
  assert.ok(caps.some((c) => c.includes('from blue to red')));
});

test('summaries of 2-3 changes always fit in 20 words and mention every change', () => {
  const rng = new Rng(3);
  for (let i = 0; i < 300; i++) {
    const n = rng.chance(0.5) ? 2 : 3;
    const facts = Array.from({ length: n }, () =>
      randomFacts(rng, rng.pick(['move', 'color', 'text', 'icon', 'opacity', 'font', 'resize'] as Kind[])),
    );
    const per = facts.map((f) => regionCaptions(rng, f, 1280, 800));
    const summaries = summaryCaptions(rng, per);
    assert.ok(summaries.length >= 3, `only ${summaries.length} summaries`);
    for (const s of summaries) {
      assert.match(s, WELL_FORMED);
      assert.ok(s.split(' ').length <= MAX_CAPTION_WORDS, `too long: "${s}"`);
      assert.ok(s.split(' and ').length + s.split(' while ').length - 1 >= n, `not every change joined: "${s}"`);
    }
    for (const f of facts) assert.ok(minimalCaption(f).split(' ').length <= 6, minimalCaption(f));
  }
});

test('the caption vocabulary stays small and never contains literal UI text', () => {
  const rng = new Rng(11);
  const vocab = new Set<string>();
  for (const kind of KINDS) {
    for (let i = 0; i < 200; i++) {
      const f = randomFacts(rng, kind);
      for (const c of captionVariants(f, positionPhrases(f.box, 1024, 700))) for (const w of c.split(' ')) vocab.add(w);
    }
  }
  assert.ok(vocab.size < 400, `vocabulary ${vocab.size} words`);
  // names and brands only ever appear as on-screen text: none may reach a caption
  const onScreenOnly = [...W.FIRST, ...W.LAST, ...W.BRANDS, 'dashboard', 'invoice', 'subscribe'].map((s) => s.toLowerCase());
  assert.deepEqual(
    onScreenOnly.filter((w) => vocab.has(w)),
    [],
  );
});

test('position phrases follow the 3x3 cell of the box centre', () => {
  assert.deepEqual(positionPhrases([0, 0, 20, 20], 900, 900), ['at the top left', 'in the top left corner']);
  assert.deepEqual(positionPhrases([440, 440, 460, 460], 900, 900), ['in the middle', 'in the centre of the screen']);
  assert.deepEqual(positionPhrases([880, 440, 900, 460], 900, 900), ['on the right', 'on the right side']);
  assert.deepEqual(positionPhrases([440, 880, 460, 900], 900, 900), ['at the bottom', 'near the bottom of the screen']);
  assert.deepEqual(positionPhrases(null, 900, 900), []);
});

test('text shown on screen is quoted through slots: region references keep them, summaries fill them', () => {
  // what may be quoted: the words an element shows, never the name of an icon, an avatar or a picture
  assert.deepEqual(quoteOf({ kind: 'add', role: 'button', label: 'Sign in', from: null, to: 'Sign in' }), { label: 'sign in' });
  assert.deepEqual(quoteOf({ kind: 'text', role: 'cell', label: '$42,642', from: '$42,642', to: '$391.76' }), {
    old: '42 642',
    new: '391 76',
  });
  assert.deepEqual(
    quoteOf({ kind: 'reorder', role: 'tab', label: 'Settings | Billing', from: 'Settings | Billing', to: 'Billing | Settings' }),
    { old: 'settings', new: 'billing' },
  );
  assert.equal(quoteOf({ kind: 'move', role: 'icon button', label: 'trash', from: null, to: null }), undefined);
  assert.equal(quoteOf({ kind: 'color', role: 'avatar', label: 'Grace Silva', from: 'green', to: 'red' }), undefined);
  assert.equal(quoteOf({ kind: 'text', role: 'input', label: '••••', from: '••••', to: 'Role' }), undefined, 'nothing legible to quote');
  assert.equal(slotWords('Café – Übersicht!'), 'cafe ubersicht');

  const facts: CaptionFacts = {
    kind: 'add',
    role: 'button',
    color: 'blue',
    box: [10, 10, 80, 40],
    area: null,
    quote: { label: 'sign in' },
  };
  const quoting = quotingVariants(facts, ['at the top left']);
  assert.ok(quoting.includes('a button <label> was added'), quoting.join(' | '));
  for (const c of quoting) assert.match(c, /^([a-z]+|<label>|<old>|<new>)( ([a-z]+|<label>|<old>|<new>))*$/);
  assert.equal(fillSlots('a button <label> was added', facts.quote), 'a button sign in was added');
  assert.equal(fillSlots('<old> now reads <new>', facts.quote), undefined, 'a slot with no text');
  const rng = new Rng(5);
  const region = regionCaptions(rng, facts, 800, 600);
  assert.equal(region.refs.filter((r) => r.includes('<label>')).length, QUOTED_REFS);
  const summaries = summaryCaptions(rng, [region]);
  assert.ok(summaries.some((c) => c.includes('sign in')) && summaries.every((c) => !c.includes('<')), summaries.join(' | '));
  // a change with nothing to quote keeps the plain grammar only
  const plain = regionCaptions(new Rng(5), { ...facts, quote: undefined }, 800, 600);
  assert.ok(plain.refs.every((r) => !r.includes('<')));
  // two changes: each clause filled with its own change's text
  const two = summaryCaptions(new Rng(9), [
    regionCaptions(
      new Rng(1),
      { kind: 'text', role: 'tab', color: null, box: [0, 0, 40, 20], area: null, quote: { old: 'about', new: 'analytics' } },
      800,
      600,
    ),
    regionCaptions(
      new Rng(2),
      { kind: 'remove', role: 'badge', color: 'red', box: [300, 300, 340, 320], area: null, quote: { label: 'beta' } },
      800,
      600,
    ),
  ]);
  for (const s of two) assert.ok(!s.includes('<') && s.split(' ').length <= MAX_CAPTION_WORDS, s);
  assert.ok(
    two.some((s) => s.includes('about') && s.includes('analytics')),
    two.join(' | '),
  );
});
