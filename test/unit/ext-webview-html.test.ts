import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { buildWebviewHtml, contentSecurityPolicy, createNonce } from '../../src/extension/pure/webviewHtml.js';

test('the panel CSP allows only nonce scripts, no network and no remote content', () => {
  const csp = contentSecurityPolicy('https://file+.vscode-resource.vscode-cdn.net', 'abcDEF123abcDEF123');
  const directives = new Map(csp.split('; ').map((d) => { const [name, ...values] = d.split(' '); return [name, values]; }));
  assert.deepEqual(directives.get('default-src'), ["'none'"]);
  assert.deepEqual(directives.get('script-src'), ["'nonce-abcDEF123abcDEF123'"]);
  assert.deepEqual(directives.get('connect-src'), ["'none'"]);
  assert.ok(!csp.includes('unsafe-inline') && !csp.includes('unsafe-eval'), csp);
  assert.ok(!/(^|\s)(https?:|\*)(\s|;|$)/.test(csp), 'no scheme-wide or wildcard sources');
});

test('the page carries the nonce on its script and refuses a weak nonce', () => {
  const nonce = createNonce((n) => randomBytes(n));
  assert.match(nonce, /^[A-Za-z0-9]{32}$/);
  assert.notEqual(nonce, createNonce((n) => randomBytes(n)));
  const html = buildWebviewHtml({ cspSource: 'vscode-resource:', nonce, scriptUri: 'vscode-resource:/ext/dist/webview.js', styleUri: 'vscode-resource:/ext/media/panel.css' });
  assert.match(html, new RegExp(`<script type="module" nonce="${nonce}" src="vscode-resource:/ext/dist/webview.js"></script>`));
  assert.equal((html.match(/<script/g) ?? []).length, 1, 'one script tag only');
  assert.throws(() => buildWebviewHtml({ cspSource: 'x', nonce: 'short', scriptUri: 'a', styleUri: 'b' }), /nonce/);
});
