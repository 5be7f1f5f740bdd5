// Inline SVG icons drawn on a 24x24 grid with currentColor, so their colour follows the element.
// Names are the words captions use ("the star icon became a heart").

const ICON_BODIES: Record<string, string> = {
  star: '<path d="M12 2.5l2.9 6.1 6.6.8-4.9 4.6 1.3 6.5L12 17.3l-5.9 3.2 1.3-6.5-4.9-4.6 6.6-.8z" fill="currentColor"/>',
  heart: '<path d="M12 20.5S3 14.6 3 8.8A4.6 4.6 0 0 1 12 6.6a4.6 4.6 0 0 1 9 2.2c0 5.8-9 11.7-9 11.7z" fill="currentColor"/>',
  home: '<path d="M3 11.5L12 4l9 7.5M5.5 9.5V20h13V9.5M10 20v-6h4v6" fill="none" stroke="currentColor" stroke-width="2" stroke-linejoin="round"/>',
  search:
    '<circle cx="10.5" cy="10.5" r="6" fill="none" stroke="currentColor" stroke-width="2.2"/><path d="M15 15l6 6" stroke="currentColor" stroke-width="2.4" stroke-linecap="round"/>',
  user: '<circle cx="12" cy="8" r="4.2" fill="currentColor"/><path d="M3.5 21c.8-4.6 4.2-7 8.5-7s7.7 2.4 8.5 7z" fill="currentColor"/>',
  bell: '<path d="M6 17V11a6 6 0 0 1 12 0v6l2 2H4z" fill="currentColor"/><circle cx="12" cy="21" r="2" fill="currentColor"/>',
  trash: '<path d="M4 6h16M9 6V3.5h6V6M6.5 6l1 15h9l1-15" fill="none" stroke="currentColor" stroke-width="2" stroke-linejoin="round"/>',
  plus: '<path d="M12 4v16M4 12h16" stroke="currentColor" stroke-width="2.6" stroke-linecap="round"/>',
  check:
    '<path d="M4 12.5l5 5L20 6.5" fill="none" stroke="currentColor" stroke-width="2.6" stroke-linecap="round" stroke-linejoin="round"/>',
  cross: '<path d="M5 5l14 14M19 5L5 19" stroke="currentColor" stroke-width="2.6" stroke-linecap="round"/>',
  arrow:
    '<path d="M4 12h15M13 6l6 6-6 6" fill="none" stroke="currentColor" stroke-width="2.4" stroke-linecap="round" stroke-linejoin="round"/>',
  menu: '<path d="M3.5 6h17M3.5 12h17M3.5 18h17" stroke="currentColor" stroke-width="2.4" stroke-linecap="round"/>',
  mail: '<rect x="3" y="5" width="18" height="14" rx="2" fill="none" stroke="currentColor" stroke-width="2"/><path d="M3.5 6.5L12 13l8.5-6.5" fill="none" stroke="currentColor" stroke-width="2"/>',
  calendar:
    '<rect x="3" y="5" width="18" height="16" rx="2" fill="none" stroke="currentColor" stroke-width="2"/><path d="M3 10h18M8 3v4M16 3v4" stroke="currentColor" stroke-width="2"/>',
  lock: '<rect x="4.5" y="10.5" width="15" height="10.5" rx="2" fill="currentColor"/><path d="M8 10.5V7.5a4 4 0 0 1 8 0v3" fill="none" stroke="currentColor" stroke-width="2.2"/>',
  download:
    '<path d="M12 3.5v12M6.5 10.5L12 16l5.5-5.5M4 20.5h16" fill="none" stroke="currentColor" stroke-width="2.3" stroke-linecap="round" stroke-linejoin="round"/>',
  cloud: '<path d="M7 19a4.5 4.5 0 0 1-.6-9A6 6 0 0 1 18 9.5a4.8 4.8 0 0 1-.5 9.5z" fill="currentColor"/>',
  gear: '<circle cx="12" cy="12" r="3.2" fill="none" stroke="currentColor" stroke-width="2.2"/><path d="M12 2.5v3.2M12 18.3v3.2M2.5 12h3.2M18.3 12h3.2M5.3 5.3l2.3 2.3M16.4 16.4l2.3 2.3M5.3 18.7l2.3-2.3M16.4 7.6l2.3-2.3" stroke="currentColor" stroke-width="2.4" stroke-linecap="round"/>',
  info: '<circle cx="12" cy="12" r="9" fill="none" stroke="currentColor" stroke-width="2"/><path d="M12 10.5v6.5" stroke="currentColor" stroke-width="2.4" stroke-linecap="round"/><circle cx="12" cy="7.2" r="1.4" fill="currentColor"/>',
  warning:
    '<path d="M12 3L22 20H2z" fill="none" stroke="currentColor" stroke-width="2" stroke-linejoin="round"/><path d="M12 9.5v5" stroke="currentColor" stroke-width="2.2" stroke-linecap="round"/><circle cx="12" cy="17.3" r="1.2" fill="currentColor"/>',
};

export const ICON_NAMES = Object.keys(ICON_BODIES);

export function iconSvg(name: string, size: number): string {
  const body = ICON_BODIES[name];
  if (!body) throw new Error(`unknown icon ${name}`);
  return `<svg width="${size}" height="${size}" viewBox="0 0 24 24" aria-hidden="true">${body}</svg>`;
}

export function iconInner(name: string): string {
  const body = ICON_BODIES[name];
  if (!body) throw new Error(`unknown icon ${name}`);
  return body;
}

/** Small picture scenes (thumbnails, covers) drawn on a 120x80 grid; "image swapped" redraws one. */
export const IMAGE_SCENES = ['landscape', 'city', 'portrait', 'shapes'] as const;

export function imageBody(scene: string, sky: string, main: string, accent: string): string {
  switch (scene) {
    case 'landscape':
      return (
        `<rect width="120" height="80" fill="${sky}"/><circle cx="92" cy="20" r="9" fill="${accent}"/>` +
        `<path d="M0 80L34 34l22 26 16-18 48 38z" fill="${main}"/>`
      );
    case 'city':
      return (
        `<rect width="120" height="80" fill="${sky}"/><rect x="8" y="34" width="18" height="46" fill="${main}"/>` +
        `<rect x="30" y="18" width="22" height="62" fill="${accent}"/><rect x="56" y="40" width="16" height="40" fill="${main}"/>` +
        `<rect x="76" y="26" width="24" height="54" fill="${accent}"/><rect x="104" y="46" width="16" height="34" fill="${main}"/>`
      );
    case 'portrait':
      return (
        `<rect width="120" height="80" fill="${sky}"/><circle cx="60" cy="30" r="14" fill="${accent}"/>` +
        `<path d="M30 80c4-20 16-28 30-28s26 8 30 28z" fill="${main}"/>`
      );
    default:
      return (
        `<rect width="120" height="80" fill="${sky}"/><circle cx="36" cy="44" r="22" fill="${main}"/>` +
        `<rect x="62" y="16" width="40" height="40" rx="6" fill="${accent}"/>`
      );
  }
}
