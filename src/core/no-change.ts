// The words for "nothing changed", in one place: the data engine writes them as reference
// captions and the runtime recognises them in what the caption decoder says.

export const NO_CHANGE_CAPTION = 'no visible change';

/** Every phrasing of the data engine's grammar for a "none" change (order matters to its seeded sampling). */
export const NO_CHANGE_PHRASES: readonly string[] = [
  NO_CHANGE_CAPTION,
  'nothing changed',
  'there is no visible difference',
  'the two screenshots look the same',
  'both images look identical',
  'nothing visible changed',
  'the screens look the same',
  'no change can be seen',
];

export function isNoChangeCaption(caption: string): boolean {
  const text = caption.trim();
  return text === '' || NO_CHANGE_PHRASES.includes(text);
}
