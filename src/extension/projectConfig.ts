// The workspace folder's procap.config.json (src/core/config.ts): the ignore regions and
// thresholds of the screenshot a comparison is about. Read at each describe (a small file), so an
// edit applies to the next comparison; ignored in an untrusted workspace, like workspace settings.
import * as vscode from 'vscode';
import { CONFIG_FILE_NAME, loadConfig, screenshotName, settingsFor, type ScreenshotSettings } from '../core/config.js';
import * as fs from 'node:fs';
import * as path from 'node:path';

/** The masks and thresholds for `screenshot` (a file in a workspace folder), or none. Throws ConfigError for a bad file. */
export function projectSettingsFor(screenshot: vscode.Uri | undefined): ScreenshotSettings | undefined {
  if (screenshot === undefined || !vscode.workspace.isTrusted) return undefined;
  const folder = vscode.workspace.getWorkspaceFolder(screenshot);
  if (folder === undefined || folder.uri.scheme !== 'file') return undefined;
  const file = path.join(folder.uri.fsPath, CONFIG_FILE_NAME);
  if (!fs.existsSync(file)) return undefined;
  const settings = settingsFor(loadConfig(file), screenshotName(screenshot.fsPath, folder.uri.fsPath));
  const applies = settings.masks.length > 0 || settings.minDiffPixels !== undefined || settings.minDiffRatio !== undefined;
  return applies ? settings : undefined;
}
