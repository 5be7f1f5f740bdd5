// Builds the review panel's HTML page with its Content Security Policy. Pure (no `vscode`):
// the host passes the webview's cspSource and the URIs it computed, so the policy is unit-tested.

export interface WebviewPageParts {
  /** webview.cspSource: the origin the webview serves localResourceRoots from */
  cspSource: string;
  /** a fresh random nonce per page load (see createNonce) */
  nonce: string;
  /** webview URI of dist/webview.js */
  scriptUri: string;
  /** webview URI of media/panel.css */
  styleUri: string;
}

/**
 * The policy: nothing by default; scripts only with this page's nonce (no inline handlers, no
 * eval); styles from the extension's own media plus the toolkit's constructed stylesheets (which
 * CSP does not govern); images from the extension or inline data:/blob: URIs (the screenshots are
 * sent as data: URIs); no connect-src, so the page cannot make any network request; no frames,
 * no forms, no plugins.
 */
export function contentSecurityPolicy(cspSource: string, nonce: string): string {
  return [
    "default-src 'none'",
    `img-src ${cspSource} data: blob:`,
    `style-src ${cspSource} 'nonce-${nonce}'`,
    `font-src ${cspSource}`,
    `script-src 'nonce-${nonce}'`,
    "connect-src 'none'",
    "frame-src 'none'",
    "object-src 'none'",
    "form-action 'none'",
    "base-uri 'none'",
  ].join('; ');
}

/** 32 random characters from [A-Za-z0-9], from a cryptographic source. */
export function createNonce(randomBytes: (size: number) => Uint8Array): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  const bytes = randomBytes(32);
  let nonce = '';
  for (const byte of bytes) nonce += alphabet[byte % alphabet.length];
  return nonce;
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** The whole page. The body is built by dist/webview.js; it starts with a loading state. */
export function buildWebviewHtml(parts: WebviewPageParts): string {
  if (!/^[A-Za-z0-9]{16,}$/.test(parts.nonce)) throw new Error('the webview nonce must be 16+ alphanumeric characters');
  const csp = contentSecurityPolicy(parts.cspSource, parts.nonce);
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${escapeAttribute(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<meta property="csp-nonce" content="${parts.nonce}">
<link rel="stylesheet" href="${escapeAttribute(parts.styleUri)}" nonce="${parts.nonce}">
<title>ProCap Review</title>
</head>
<body>
<main id="app" data-testid="procap-app" aria-busy="true"><p data-testid="status">Loading…</p></main>
<script type="module" nonce="${parts.nonce}" src="${escapeAttribute(parts.scriptUri)}"></script>
</body>
</html>`;
}
