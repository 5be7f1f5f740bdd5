// Builds the review panel's HTML page with its Content Security Policy. Pure (no `vscode`):
// the host passes the webview's cspSource and the URIs it computed, so the policy is unit-tested.

export interface WebviewPageParts {
  /** a fresh random nonce per page load (see createNonce) */
  nonce: string;
  /** the panel script (dist/webview.js), put inline under the nonce */
  scriptText: string;
  /** the panel stylesheet (media/panel.css), put inline under the nonce */
  styleText: string;
}

/**
 * The policy: nothing by default; the one script and the one stylesheet only with this page's nonce
 * (no inline handlers, no eval; the toolkit's constructed stylesheets are not governed by CSP);
 * images only as inline data:/blob: URIs (the screenshots are sent as data: URIs); no connect-src,
 * so the page cannot make any network request; no fonts, frames, forms, plugins or <base>.
 * The page loads no resource at all, so the panel's localResourceRoots is empty.
 */
export function contentSecurityPolicy(nonce: string): string {
  return [
    "default-src 'none'",
    'img-src data: blob:',
    `style-src 'nonce-${nonce}'`,
    `script-src 'nonce-${nonce}'`,
    "font-src 'none'",
    "connect-src 'none'",
    "frame-src 'none'",
    "worker-src 'none'",
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

/**
 * Checks that JavaScript can sit inside an inline <script> element unchanged. The HTML parser ends
 * the element at `</script`, and after `<!--` a `<script` changes how it finds the end; without
 * those two sequences (case-insensitive) a `<!--` is harmless. esbuild already writes `</script`
 * in strings as `<\/script`. Rewriting JS text is not safe in general (regexes), so refuse instead.
 */
export function inlineScriptText(script: string): string {
  const bad = /<\/?script/i.exec(script);
  if (bad) throw new Error(`the panel script contains "${bad[0]}" at offset ${bad.index}: it cannot be inlined`);
  return script;
}

/** Checks that CSS can sit inside an inline <style> element unchanged (no `</style`). */
export function inlineStyleText(style: string): string {
  if (/<\/style/i.test(style)) throw new Error('the panel stylesheet contains "</style": it cannot be inlined');
  return style;
}

/**
 * The whole page, self-contained: the script and stylesheet are inline under the nonce, so the
 * panel loads no resource (nothing can fail to load, and localResourceRoots can be empty).
 * The body is built by the script; it starts with a loading state.
 */
export function buildWebviewHtml(parts: WebviewPageParts): string {
  if (!/^[A-Za-z0-9]{16,}$/.test(parts.nonce)) throw new Error('the webview nonce must be 16+ alphanumeric characters');
  const csp = contentSecurityPolicy(parts.nonce);
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${escapeAttribute(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<meta property="csp-nonce" content="${parts.nonce}">
<style nonce="${parts.nonce}">
${inlineStyleText(parts.styleText)}
</style>
<title>ProCap Review</title>
</head>
<body>
<main id="app" data-testid="procap-app" aria-busy="true"><p data-testid="status">Loading…</p></main>
<script nonce="${parts.nonce}">
${inlineScriptText(parts.scriptText)}
</script>
</body>
</html>`;
}
