// The caption-kind patterns (src/core/caption-kind.ts) against the data engine's own grammar: every
// phrasing the decoder can have learnt for a change of kind K must read as K, so the pipeline never
// swaps a caption that agrees with its kind.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { captionKinds, captionAgreesWithKind } from '../../src/core/caption-kind.js';
import { captionVariants, minimalCaption, positionPhrases, reflowCaptions, regionCaptions, summaryCaptions } from '../../src/data/captions.js';
import type { CaptionFacts } from '../../src/data/changes.js';
import { COLOR_NAMES } from '../../src/data/colors.js';
import { ICON_NAMES } from '../../src/data/icons.js';
import { NO_CHANGE_PHRASES } from '../../src/core/no-change.js';
import { Rng } from '../../src/data/rng.js';
import { KINDS, type Kind, type Role } from '../../src/data/screen.js';

const ROLES: Role[] = ['button', 'icon button', 'tab', 'badge', 'input', 'heading', 'text', 'card', 'menu item', 'row', 'avatar', 'icon', 'link', 'number', 'progress bar'];

function facts(rng: Rng, kind: Kind): CaptionFacts {
  // a resized line of text and its bigger font read the same ("the text got bigger"); the
  // generator resizes boxes, not lines of text
  const roles = kind === 'resize' ? ROLES.filter((r) => r !== 'text') : ROLES;
  const x = rng.int(0, 700);
  const y = rng.int(0, 500);
  return {
    kind, role: kind === 'theme' ? 'page' : rng.pick(roles),
    color: rng.chance(0.7) ? rng.pick(COLOR_NAMES) : null,
    box: kind === 'theme' ? null : [x, y, x + rng.int(10, 90), y + rng.int(10, 90)],
    area: rng.chance(0.5) ? rng.pick(['toolbar', 'sidebar', 'nav bar', 'dialog', 'list', 'table', 'menu', 'form'] as const) : null,
    // a move always has a direction
    dx: rng.pick([0, 3, -5, 20, -33, 80, -110]), dy: rng.pick([2, -7, 15, -40, 60, ...(kind === 'move' ? [] : [0])]),
    widthRatio: rng.pick([1, 0.6, 1.5]), heightRatio: rng.pick([1, 0.7, 1.4]),
    colorProp: rng.pick(['background-color', 'color', 'border-color']),
    fromColor: rng.pick(COLOR_NAMES), toColor: rng.pick(['red', 'dark green', 'light grey', 'white'] as const),
    numeric: rng.chance(0.3), longer: rng.chance(0.2), shorter: rng.chance(0.2),
    fromIcon: rng.pick(ICON_NAMES), toIcon: rng.pick(ICON_NAMES),
    fontChange: rng.pick(['bold', 'unbold', 'bigger', 'smaller', 'serif', 'mono', 'sans'] as const),
    more: rng.chance(0.5), spacingProp: rng.pick(['gap', 'padding']), childRole: rng.chance(0.5) ? 'tab' : undefined,
    opacityTo: rng.pick(['faded', 'hidden', 'visible'] as const),
    themeChange: rng.pick(['dark', 'light', 'accent'] as const), fromBg: 'white', toBg: 'black',
  };
}

test('every region caption of the grammar reads as its own kind, and as that kind only', () => {
  const rng = new Rng(11);
  for (const kind of KINDS) {
    for (let i = 0; i < 80; i++) {
      const f = facts(rng, kind);
      for (const c of [...captionVariants(f, positionPhrases(f.box, 800, 600)), minimalCaption(f)]) {
        assert.deepEqual([...captionKinds(c)], [kind], `"${c}" (${kind})`);
      }
    }
  }
  for (const c of NO_CHANGE_PHRASES) assert.deepEqual([...captionKinds(c)], ['none'], c);
  for (const [dx, dy] of [[0, 30], [-50, 0], [3, -2]]) {
    for (const c of reflowCaptions(dx, dy)) assert.deepEqual([...captionKinds(c)], ['reflow'], c);
  }
});

test('a summary of two or three changes reads as each of their kinds', () => {
  const rng = new Rng(5);
  const changing = KINDS.filter((k) => k !== 'none' && k !== 'theme');
  for (let i = 0; i < 300; i++) {
    const chosen = [rng.pick(changing), rng.pick(changing), ...(rng.chance(0.5) ? [rng.pick(changing)] : [])];
    const per = chosen.map((k) => regionCaptions(rng, facts(rng, k), 800, 600));
    for (const s of summaryCaptions(rng, per)) {
      const kinds = captionKinds(s);
      for (const k of chosen) assert.ok(kinds.has(k), `"${s}" should read as ${k}: ${[...kinds].join(', ')}`);
    }
  }
});

test('agreement: the decided kind against what the caption says', () => {
  assert.ok(captionAgreesWithKind('the white link in the nav bar is no longer visible', 'opacity'));
  assert.ok(!captionAgreesWithKind('the white link in the nav bar is no longer visible', 'move'));
  assert.ok(!captionAgreesWithKind('the order of the menu items changed', 'remove'));
  assert.ok(captionAgreesWithKind('the blue button moved down and to the right', 'move'));
  assert.ok(!captionAgreesWithKind('nothing changed', 'color'));
  assert.ok(!captionAgreesWithKind('the content here shifted far left', 'add'));
  // wording the grammar never writes contradicts nothing
  assert.ok(captionAgreesWithKind('', 'none'));
  assert.ok(captionAgreesWithKind('zebra crossing', 'move'));
});
