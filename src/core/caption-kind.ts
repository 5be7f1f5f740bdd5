// Which change kind a caption's wording claims. The caption decoder and the kind head (plus the
// layout prior) are separate outputs of the model and can disagree ("kind: move" next to "the link
// is no longer visible"); the pipeline uses this to keep a region's caption and kind telling the
// same story. The patterns follow the phrasings of the data engine's grammar
// (src/data/captions.ts), which is the only language the caption decoder has learnt;
// test/unit/caption-kind.test.ts checks them against that grammar.
import { NO_CHANGE_PHRASES } from './no-change.js';
import type { ChangeKind } from './report.js';

// Ordered: for each clause the first matching pattern decides, so the specific wordings come
// before the general ones ("moved further apart" is spacing before "moved" can say move,
// "the text got bigger" is font before "got bigger" can say resize).
const RULES: [ChangeKind, RegExp][] = [
  ['reflow', /^(the (content|elements|layout) here|this part of the layout)\b/],
  [
    'theme',
    /^the (accent|theme) colour changed|^all .* elements turned|highlights across the page|as its main colour|switched to an? \w+ theme|^the whole screen turned|mode was turned on|^the theme changed|^everything switched to|^the background of the whole page/,
  ],
  ['text', /^the (text|wording|number|value) of .* changed$|^the number in .* changed$/],
  [
    'spacing',
    /further apart|closer together|space between|the gap between|spread out more|packed tighter|(more|less) padding|space inside|the padding of|the spacing around|looks tighter|^the spacing (grew|shrank)/,
  ],
  ['reorder', /(swapped|switched) places|the order of|were reordered/],
  ['font', /\bbold\b|regular weight|font size|has (larger|smaller) text|uses a (serif|monospace|sans serif) font|the font of|font changed/],
  ['opacity', /faded|greyed out|transparent|dimmed|was hidden|invisible|no longer visible|fully visible/],
  [
    'icon',
    /\bicon\b.*\b(became|was replaced by) an? |the icon changed from an? |changed shape|was swapped for an? |now shows an? .*\bicon$|the icon in .* changed$|has a different icon|different picture|another picture|picture .*was swapped|replaced by a different one|a different image appears|^the image\b.*was replaced$|\bicon changed$/,
  ],
  ['add', /was added|\bappeared|there is a new|one more/],
  ['remove', /was removed|disappeared|is gone|was deleted|no longer appears/],
  [
    'move',
    /\b(moved|shifted)( slightly| a little| far)? (up|down|left|right|to the)\b|is now( slightly| much)? (lower|higher|further)|\bsits .* than before/,
  ],
  ['text', /got longer$|\btext\b.* got shorter$/],
  ['font', /\btext\b.* got (bigger|smaller)$/],
  ['resize', /\b(got|is now|was made) (bigger|larger|smaller|wider|narrower|taller|shorter)\b|\b(grew|shrank)\b|was resized/],
  ['color', /(changed|went) from .* to \w+|turned \w+|changed to \w+|is now .*instead of|\bis now (\w+ )?\w+$/],
  [
    'text',
    /changed$|shows a different value|was updated|was rewritten|shows different text|the wording of|was renamed|the label of .* was changed/,
  ],
];

/** The kind one clause claims, or null when its wording is not one the patterns know. */
function clauseKind(clause: string): ChangeKind | null {
  const text = clause.trim();
  if (NO_CHANGE_PHRASES.includes(text)) return 'none';
  for (const [kind, pattern] of RULES) if (pattern.test(text)) return kind;
  return null;
}

/**
 * The kinds a caption claims: one per clause (a whole-screen caption joins several with "and",
 * "and also" or "while"). Empty when no clause is recognised: such a caption contradicts nothing.
 */
export function captionKinds(caption: string): Set<ChangeKind> {
  const kinds = new Set<ChangeKind>();
  const text = caption.trim();
  if (text === '') return new Set(['none']);
  for (const clause of text.split(/ and (?:also )?| while /)) {
    const kind = clauseKind(clause);
    if (kind) kinds.add(kind);
  }
  return kinds;
}

/** True when the caption's wording is compatible with the region's kind (or not recognised at all). */
export function captionAgreesWithKind(caption: string, kind: string): boolean {
  const kinds = captionKinds(caption);
  return kinds.size === 0 || kinds.has(kind as ChangeKind);
}
