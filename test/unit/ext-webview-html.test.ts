import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import {
  buildWebviewHtml,
  contentSecurityPolicy,
  createNonce,
  inlineScriptText,
  inlineStyleText,
} from '../../src/extension/pure/webviewHtml.js';

test('the panel CSP allows only nonce scripts and styles, inline images, no network and no remote content', () => {
  const csp = contentSecurityPolicy('abcDEF123abcDEF123');
  const directives = new Map(
    csp.split('; ').map((d) => {
      const [name, ...values] = d.split(' ');
      return [name, values];
    }),
  );
  assert.deepEqual(directives.get('default-src'), ["'none'"]);
  assert.deepEqual(directives.get('script-src'), ["'nonce-abcDEF123abcDEF123'"]);
  assert.deepEqual(directives.get('style-src'), ["'nonce-abcDEF123abcDEF123'"]);
  assert.deepEqual(directives.get('img-src'), ['data:', 'blob:']);
  assert.deepEqual(directives.get('connect-src'), ["'none'"]);
  assert.ok(!csp.includes('unsafe-inline') && !csp.includes('unsafe-eval'), csp);
  assert.ok(!/(https?:|\*|vscode-resource|'self')/.test(csp), 'no origin at all: the page loads nothing');
});

test('the page carries the nonce on its only script and style, and refuses a weak nonce', () => {
  const nonce = createNonce((n) => randomBytes(n));
  assert.match(nonce, /^[A-Za-z0-9]{32}$/);
  assert.notEqual(
    nonce,
    createNonce((n) => randomBytes(n)),
  );
  const html = buildWebviewHtml({ nonce, scriptText: 'console.log(1 < 2);', styleText: 'body { color: red; }' });
  assert.ok(html.includes(`<script nonce="${nonce}">\nconsole.log(1 < 2);\n</script>`));
  assert.ok(html.includes(`<style nonce="${nonce}">\nbody { color: red; }\n</style>`));
  assert.equal((html.match(/<script/g) ?? []).length, 1, 'one script element only');
  assert.ok(!/\s(src|href)=/.test(html), 'the page references no resource');
  assert.throws(() => buildWebviewHtml({ nonce: 'short', scriptText: '', styleText: '' }), /nonce/);
});

test('script and style text that would end their element early are refused, not rewritten', () => {
  assert.equal(
    inlineScriptText('const marker = `<!--${id}-->`; const s = "<\\/script>";'),
    'const marker = `<!--${id}-->`; const s = "<\\/script>";',
  );
  assert.throws(() => inlineScriptText('const s = "</script><img src=x onerror=alert(1)>";'), /cannot be inlined/);
  assert.throws(() => inlineScriptText('x = "<!--<SCRIPT>"'), /cannot be inlined/);
  assert.throws(() => inlineStyleText('a::after { content: "</style>" }'), /cannot be inlined/);
  assert.equal(inlineStyleText('a { color: red }'), 'a { color: red }');
});
