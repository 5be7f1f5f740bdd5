// Random caption facts for the grammar tests (data-captions, caption-kind): every field a change of
// any kind may carry, with values the data engine's generator makes.
import type { CaptionFacts } from '../../src/data/changes.js';
import { COLOR_NAMES } from '../../src/data/colors.js';
import { ICON_NAMES } from '../../src/data/icons.js';
import type { Rng } from '../../src/data/rng.js';
import type { Kind, Role } from '../../src/data/screen.js';

export const CAPTION_ROLES: Role[] = [
  'button',
  'icon button',
  'tab',
  'badge',
  'input',
  'heading',
  'text',
  'card',
  'menu item',
  'row',
  'avatar',
  'icon',
  'link',
  'number',
  'progress bar',
];

export function randomFacts(rng: Rng, kind: Kind): CaptionFacts {
  // the generator resizes boxes, not lines of text (a resized line of text and its bigger font
  // read the same: "the text got bigger"), and a move always has a direction
  const roles = kind === 'resize' ? CAPTION_ROLES.filter((r) => r !== 'text') : CAPTION_ROLES;
  const x = rng.int(0, 700);
  const y = rng.int(0, 500);
  return {
    kind,
    role: kind === 'theme' ? 'page' : rng.pick(roles),
    color: rng.chance(0.7) ? rng.pick(COLOR_NAMES) : null,
    box: kind === 'theme' ? null : [x, y, x + rng.int(10, 90), y + rng.int(10, 90)],
    area: rng.chance(0.5) ? rng.pick(['toolbar', 'sidebar', 'nav bar', 'dialog', 'list', 'table', 'menu', 'form'] as const) : null,
    dx: rng.pick([0, 3, -5, 20, -33, 80, -110]),
    dy: rng.pick([2, -7, 15, -40, 60, ...(kind === 'move' ? [] : [0])]),
    widthRatio: rng.pick([1, 0.6, 1.5]),
    heightRatio: rng.pick([1, 0.7, 1.4]),
    colorProp: rng.pick(['background-color', 'color', 'border-color']),
    fromColor: rng.pick(COLOR_NAMES),
    toColor: rng.pick(['red', 'dark green', 'light grey', 'white'] as const),
    numeric: rng.chance(0.3),
    longer: rng.chance(0.2),
    shorter: rng.chance(0.2),
    fromIcon: rng.pick(ICON_NAMES),
    toIcon: rng.pick(ICON_NAMES),
    fontChange: rng.pick(['bold', 'unbold', 'bigger', 'smaller', 'serif', 'mono', 'sans'] as const),
    more: rng.chance(0.5),
    spacingProp: rng.pick(['gap', 'padding']),
    childRole: rng.chance(0.5) ? 'tab' : undefined,
    opacityTo: rng.pick(['faded', 'hidden', 'visible'] as const),
    themeChange: rng.pick(['dark', 'light', 'accent'] as const),
    fromBg: 'white',
    toBg: 'black',
  };
}
