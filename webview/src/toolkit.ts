// The only place the @vscode/webview-ui-toolkit is imported (it is no longer maintained upstream:
// swapping it out later touches webview/ alone). Registers the web components the panel uses:
// <vscode-button>, <vscode-tag>, <vscode-progress-ring>, <vscode-divider>.
import {
  provideVSCodeDesignSystem, vsCodeButton, vsCodeTag, vsCodeProgressRing, vsCodeDivider,
} from '@vscode/webview-ui-toolkit';

export function registerToolkit(): void {
  provideVSCodeDesignSystem().register(vsCodeButton(), vsCodeTag(), vsCodeProgressRing(), vsCodeDivider());
}
