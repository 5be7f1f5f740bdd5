// Reads the procapReview.* settings (declared in package.json "contributes.configuration") into the
// options the engine takes. Out-of-range values are clamped to the declared bounds, so a typo in
// settings.json cannot make the engine allocate without limit.
import * as vscode from 'vscode';
import { DEFAULT_BEAM_WIDTH } from '../core/defaults.js';

export type ExecutionProvider = 'auto' | 'cuda' | 'cpu';
export type AntiAliasing = 'ignore' | 'report';

export interface ReviewSettings {
  executionProvider: ExecutionProvider;
  /** 0 = let onnxruntime choose */
  threads: number;
  keyframes: number;
  beamWidth: number;
  diffThreshold: number;
  antiAliasing: AntiAliasing;
  maxImagePixels: number;
  maxMemoryMB: number;
  inlineAnnotations: boolean;
}

export const SETTINGS_SECTION = 'procapReview';

function clamp(value: number, low: number, high: number, fallback: number): number {
  if (!Number.isFinite(value)) return fallback;
  return Math.min(high, Math.max(low, value));
}

export function readSettings(): ReviewSettings {
  const config = vscode.workspace.getConfiguration(SETTINGS_SECTION);
  const provider = config.get<string>('executionProvider', 'auto');
  const antiAliasing = config.get<string>('antiAliasing', 'ignore');
  return {
    executionProvider: provider === 'cuda' || provider === 'cpu' ? provider : 'auto',
    threads: Math.round(clamp(config.get<number>('threads', 0), 0, 64, 0)),
    keyframes: Math.round(clamp(config.get<number>('keyframes', 2), 1, 7, 2)),
    beamWidth: Math.round(clamp(config.get<number>('beamWidth', DEFAULT_BEAM_WIDTH), 1, 8, DEFAULT_BEAM_WIDTH)),
    diffThreshold: clamp(config.get<number>('diffThreshold', 0.1), 0, 1, 0.1),
    antiAliasing: antiAliasing === 'report' ? 'report' : 'ignore',
    maxImagePixels: Math.round(clamp(config.get<number>('maxImagePixels', 40_000_000), 1, 400_000_000, 40_000_000)),
    maxMemoryMB: Math.round(clamp(config.get<number>('maxMemoryMB', 1024), 64, 16384, 1024)),
    inlineAnnotations: config.get<boolean>('inlineAnnotations', true),
  };
}

/** True when a settings change means the engine must be rebuilt with new options. */
export function affectsEngine(event: vscode.ConfigurationChangeEvent): boolean {
  return ['executionProvider', 'threads', 'keyframes', 'beamWidth', 'diffThreshold', 'antiAliasing', 'maxImagePixels', 'maxMemoryMB'].some(
    (key) => event.affectsConfiguration(`${SETTINGS_SECTION}.${key}`),
  );
}
