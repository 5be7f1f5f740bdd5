// Colour names a person would use, each with a few shades that clearly deserve that name, and the
// page themes (palettes) built from them. Captions only ever use these names.
import type { Rng } from './rng.js';

export const COLOR_NAMES = [
  'red',
  'dark red',
  'orange',
  'yellow',
  'green',
  'dark green',
  'teal',
  'light blue',
  'blue',
  'dark blue',
  'purple',
  'pink',
  'brown',
  'black',
  'dark grey',
  'grey',
  'light grey',
  'white',
] as const;
export type ColorName = (typeof COLOR_NAMES)[number];

export const COLOR_SHADES: Record<ColorName, string[]> = {
  red: ['#dc2626', '#e53935', '#d32f2f'],
  'dark red': ['#991b1b', '#8b1a1a', '#7f1d1d'],
  orange: ['#f97316', '#fb8c00', '#ea580c'],
  yellow: ['#facc15', '#fdd835', '#eab308'],
  green: ['#16a34a', '#43a047', '#22c55e'],
  'dark green': ['#166534', '#1b5e20', '#14532d'],
  teal: ['#0d9488', '#00897b', '#14b8a6'],
  'light blue': ['#60a5fa', '#4fc3f7', '#7dd3fc'],
  blue: ['#2563eb', '#1e88e5', '#1976d2'],
  'dark blue': ['#1e3a8a', '#0d47a1', '#172554'],
  purple: ['#7c3aed', '#8e24aa', '#9333ea'],
  pink: ['#ec4899', '#f06292', '#db2777'],
  brown: ['#795548', '#8d6e63', '#78350f'],
  black: ['#111111', '#0a0a0a', '#1a1a1a'],
  'dark grey': ['#374151', '#424242', '#3f3f46'],
  grey: ['#6b7280', '#9e9e9e', '#8a8a8a'],
  'light grey': ['#e5e7eb', '#e0e0e0', '#d4d4d8'],
  white: ['#ffffff', '#fafafa', '#f8fafc'],
};

/** Colours used for accents (buttons, badges, icons): vivid, easy to name. */
export const ACCENT_NAMES: ColorName[] = [
  'red',
  'dark red',
  'orange',
  'yellow',
  'green',
  'dark green',
  'teal',
  'light blue',
  'blue',
  'dark blue',
  'purple',
  'pink',
  'brown',
];

export interface NamedColor {
  name: ColorName;
  hex: string;
  /** set for palette colours: the CSS variable that carries it (e.g. var(--primary)) */
  css?: string;
}

export function shade(rng: Rng, name: ColorName): NamedColor {
  return { name, hex: rng.pick(COLOR_SHADES[name]) };
}

export function hexToRgb(hex: string): [number, number, number] {
  const v = parseInt(hex.slice(1), 16);
  return [(v >> 16) & 255, (v >> 8) & 255, v & 255];
}

export function rgbToHex(rgb: readonly number[]): string {
  return (
    '#' +
    rgb
      .map((c) =>
        Math.max(0, Math.min(255, Math.round(c)))
          .toString(16)
          .padStart(2, '0'),
      )
      .join('')
  );
}

/** linear mix in sRGB, the way a CSS colour transition interpolates */
export function mixHex(from: string, to: string, t: number): string {
  const a = hexToRgb(from);
  const b = hexToRgb(to);
  return rgbToHex(a.map((c, i) => c + (b[i] - c) * t));
}

export function colorDistance(a: string, b: string): number {
  const x = hexToRgb(a);
  const y = hexToRgb(b);
  return Math.hypot(x[0] - y[0], x[1] - y[1], x[2] - y[2]);
}

/** White or near-black text, whichever reads better on the background. */
export function textOn(hex: string): string {
  const [r, g, b] = hexToRgb(hex);
  return 0.299 * r + 0.587 * g + 0.114 * b > 150 ? '#111111' : '#ffffff';
}

/** A page theme. Every colour of a screen comes from these variables, so a theme change is a swap. */
export interface Palette {
  id: string;
  dark: boolean;
  bg: NamedColor;
  surface: NamedColor;
  text: NamedColor;
  muted: NamedColor;
  border: NamedColor;
  primary: NamedColor;
  secondary: NamedColor;
  nav: NamedColor;
}

interface PaletteSpec {
  id: string;
  dark: boolean;
  bg: [ColorName, string];
  surface: [ColorName, string];
  text: [ColorName, string];
  muted: [ColorName, string];
  border: [ColorName, string];
  primary: ColorName;
  secondary: ColorName;
  nav: [ColorName, string];
}

// Held-out palettes (test split only) are marked in HELD_OUT_PALETTES below.
const PALETTE_SPECS: PaletteSpec[] = [
  {
    id: 'light-blue',
    dark: false,
    bg: ['white', '#f5f6f8'],
    surface: ['white', '#ffffff'],
    text: ['black', '#1a1a1a'],
    muted: ['grey', '#6b7280'],
    border: ['light grey', '#d9dce1'],
    primary: 'blue',
    secondary: 'teal',
    nav: ['dark blue', '#1e3a8a'],
  },
  {
    id: 'light-green',
    dark: false,
    bg: ['white', '#fafafa'],
    surface: ['white', '#ffffff'],
    text: ['dark grey', '#333333'],
    muted: ['grey', '#777777'],
    border: ['light grey', '#dddddd'],
    primary: 'green',
    secondary: 'orange',
    nav: ['white', '#ffffff'],
  },
  {
    id: 'light-purple',
    dark: false,
    bg: ['light grey', '#eeeef2'],
    surface: ['white', '#ffffff'],
    text: ['black', '#161616'],
    muted: ['grey', '#6e6e7a'],
    border: ['light grey', '#d4d4dc'],
    primary: 'purple',
    secondary: 'pink',
    nav: ['purple', '#5b21b6'],
  },
  {
    id: 'light-red',
    dark: false,
    bg: ['white', '#ffffff'],
    surface: ['white', '#fbfbfb'],
    text: ['black', '#202020'],
    muted: ['grey', '#737373'],
    border: ['light grey', '#e2e2e2'],
    primary: 'red',
    secondary: 'dark blue',
    nav: ['dark grey', '#2d2d2d'],
  },
  {
    id: 'light-teal',
    dark: false,
    bg: ['white', '#f7f9f9'],
    surface: ['white', '#ffffff'],
    text: ['dark grey', '#263238'],
    muted: ['grey', '#78909c'],
    border: ['light grey', '#cfd8dc'],
    primary: 'teal',
    secondary: 'orange',
    nav: ['teal', '#00695c'],
  },
  {
    id: 'dark-blue',
    dark: true,
    bg: ['black', '#121212'],
    surface: ['dark grey', '#1f2428'],
    text: ['white', '#f0f0f0'],
    muted: ['grey', '#9ca3af'],
    border: ['dark grey', '#3a3f44'],
    primary: 'light blue',
    secondary: 'green',
    nav: ['black', '#0b0b0b'],
  },
  {
    id: 'dark-orange',
    dark: true,
    bg: ['dark grey', '#1e1e1e'],
    surface: ['dark grey', '#2a2a2a'],
    text: ['white', '#eeeeee'],
    muted: ['grey', '#a0a0a0'],
    border: ['dark grey', '#444444'],
    primary: 'orange',
    secondary: 'light blue',
    nav: ['black', '#141414'],
  },
  {
    id: 'dark-purple',
    dark: true,
    bg: ['dark blue', '#0f172a'],
    surface: ['dark blue', '#1e293b'],
    text: ['white', '#f1f5f9'],
    muted: ['grey', '#94a3b8'],
    border: ['dark grey', '#334155'],
    primary: 'purple',
    secondary: 'pink',
    nav: ['black', '#020617'],
  },
  // held out for test
  {
    id: 'light-brown',
    dark: false,
    bg: ['white', '#fbf8f3'],
    surface: ['white', '#ffffff'],
    text: ['brown', '#3e2723'],
    muted: ['grey', '#8d8d8d'],
    border: ['light grey', '#e0d8cc'],
    primary: 'brown',
    secondary: 'dark green',
    nav: ['brown', '#5d4037'],
  },
  {
    id: 'dark-green',
    dark: true,
    bg: ['black', '#0d1410'],
    surface: ['dark grey', '#1b2620'],
    text: ['white', '#e8f5e9'],
    muted: ['grey', '#9aa59d'],
    border: ['dark grey', '#34443a'],
    primary: 'green',
    secondary: 'yellow',
    nav: ['dark green', '#14532d'],
  },
];

export const HELD_OUT_PALETTES = new Set(['light-brown', 'dark-green']);

export function buildPalette(rng: Rng, spec: PaletteSpec): Palette {
  const palette: Palette = {
    id: spec.id,
    dark: spec.dark,
    bg: { name: spec.bg[0], hex: spec.bg[1] },
    surface: { name: spec.surface[0], hex: spec.surface[1] },
    text: { name: spec.text[0], hex: spec.text[1] },
    muted: { name: spec.muted[0], hex: spec.muted[1] },
    border: { name: spec.border[0], hex: spec.border[1] },
    primary: shade(rng, spec.primary),
    secondary: shade(rng, spec.secondary),
    nav: { name: spec.nav[0], hex: spec.nav[1] },
  };
  for (const key of ['bg', 'surface', 'text', 'muted', 'border', 'primary', 'secondary', 'nav'] as const) {
    palette[key].css = `var(--${key})`;
  }
  return palette;
}

/** the CSS variables of a palette (the screen root carries them) */
export function paletteVars(p: Palette): Record<string, string> {
  const navText = p.nav.name === 'white' ? p.text.hex : '#ffffff';
  return {
    '--bg': p.bg.hex,
    '--surface': p.surface.hex,
    '--text': p.text.hex,
    '--muted': p.muted.hex,
    '--border': p.border.hex,
    '--primary': p.primary.hex,
    '--secondary': p.secondary.hex,
    '--nav': p.nav.hex,
    '--navtext': navText,
    '--ontext': textOn(p.primary.hex),
    '--tint': mixHex(p.surface.hex, p.primary.hex, 0.15),
  };
}

export function paletteIds(split: string): string[] {
  return PALETTE_SPECS.filter((p) => (split === 'test' ? true : !HELD_OUT_PALETTES.has(p.id))).map((p) => p.id);
}

export function paletteById(rng: Rng, id: string): Palette {
  const spec = PALETTE_SPECS.find((p) => p.id === id);
  if (!spec) throw new Error(`unknown palette ${id}`);
  return buildPalette(rng, spec);
}
