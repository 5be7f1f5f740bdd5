// The only place the @vscode/webview-ui-toolkit is imported (it is no longer maintained upstream:
// swapping it out later touches webview/ alone). Registers the web components the panel uses:
// <vscode-button> and <vscode-progress-ring>. (<vscode-tag>/<vscode-badge> are not used: their
// template sets an inline style attribute, which the panel's CSP blocks; the kind tag is a styled span.)
// The toolkit reads the CSP nonce from <meta property="csp-nonce"> for the style element it adds.
import { provideVSCodeDesignSystem, vsCodeButton, vsCodeProgressRing } from '@vscode/webview-ui-toolkit';

export function registerToolkit(): void {
  provideVSCodeDesignSystem().register(vsCodeButton(), vsCodeProgressRing());
}
