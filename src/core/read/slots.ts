// Slot tokens in a decoder caption (<label>, <old>, <new>: see models/CONTRACT.md) filled with the
// text the reader read in that region, quoted; where it read none, the sentence is said without them.
import { quote } from './reading.js';
import type { Vocabulary } from '../session.js';

export interface SlotText {
  /** the text the element shows */
  label?: string;
  /** the text before and after a re-wording (or the two elements that traded places) */
  old?: string;
  new?: string;
}

const SLOT = /<(label|old|new)>/g;

export function hasSlots(caption: string): boolean {
  return /<(label|old|new)>/.test(caption);
}

/**
 * "a button <label> was added" -> "a button 'Sign in' was added". Without the text: a re-wording is
 * "the text changed", a swap "two elements swapped places"; an unknown label is left out ("the <label> button moved" -> "the button moved")
 * or said as "the element" ("<label> faded" -> "the element faded").
 */
export function fillCaptionSlots(caption: string, text: SlotText): string {
  if (!hasSlots(caption)) return caption;
  const missing = [...caption.matchAll(SLOT)].some((m) => !text[m[1] as keyof SlotText]);
  if (!missing) return caption.replace(SLOT, (_, slot: keyof SlotText) => quote(text[slot]!));
  // two elements that traded places, their words unread: "two elements swapped places"
  if (/<old> and <new>/.test(caption)) return caption.replace(/(the [a-z ]+ )?<old> and <new>/, 'two elements').replace(/<label> ?/g, '');
  if (/<(old|new)>/.test(caption)) return 'the text changed';
  // where the label stands for the element itself (first, or after a preposition) it becomes "the
  // element"; beside a role word ("the <label> button") it is left out
  return caption
    .replace(/(^|\b(?:of|in|on|to|from|before|after|around|beside|near) )<label>/g, '$1the element')
    .replace(/ ?<label>/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The ids of the slot tokens in `vocab` whose text `text` lacks (all of them without text): the decoder must not write them. */
export function unreadSlots(vocab: Vocabulary, text: SlotText | undefined): number[] {
  const ids: number[] = [];
  for (const slot of ['label', 'old', 'new'] as const) {
    const id = vocab.words.indexOf(`<${slot}>`);
    if (id >= 0 && !text?.[slot]) ids.push(id);
  }
  return ids;
}
