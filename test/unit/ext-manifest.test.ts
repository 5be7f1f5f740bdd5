import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { PNG } from 'pngjs';

// Runs from dist/test/unit/: the sources are read from the repository root.
const root = new URL('../../../', import.meta.url);
const manifest = JSON.parse(readFileSync(new URL('package.json', root), 'utf8'));
const commandsSource = readFileSync(new URL('src/extension/commands.ts', root), 'utf8');

const declared = new Set<string>(manifest.contributes.commands.map((c: { command: string }) => c.command));
const registered = new Set([...commandsSource.matchAll(/register\('([^']+)'/g)].map((m) => m[1]));

test('every command the extension registers is declared in package.json, and the reverse', () => {
  assert.ok(registered.size >= 15, `found ${registered.size} registered commands`);
  assert.deepEqual(
    [...registered].filter((c) => !declared.has(c)),
    [],
    'registered but not declared',
  );
  assert.deepEqual(
    [...declared].filter((c) => !registered.has(c)),
    [],
    'declared but never registered',
  );
});

test('menus and keybindings name declared commands only', () => {
  const used: string[] = [];
  for (const items of Object.values(manifest.contributes.menus) as Array<Array<{ command: string }>>)
    used.push(...items.map((i) => i.command));
  used.push(...manifest.contributes.keybindings.map((k: { command: string }) => k.command));
  assert.deepEqual(
    used.filter((c) => !declared.has(c)),
    [],
  );
});

test('entry points carry the when clauses the issue asks for', () => {
  const menu = (name: string, command: string) =>
    manifest.contributes.menus[name].find((i: { command: string }) => i.command === command)?.when ?? '';
  assert.match(menu('explorer/context', 'procapReview.describeChange'), /listMultiSelection/);
  assert.match(menu('explorer/context', 'procapReview.describeChange'), /resourceExtname/);
  assert.match(menu('explorer/context', 'procapReview.describeVsHead'), /!listMultiSelection.*gitOpenRepositoryCount/);
  assert.match(
    menu('scm/resourceState/context', 'procapReview.scm.headVsWorkingTree'),
    /scmProvider == git.*scmResourceGroup == workingTree/,
  );
  assert.match(menu('scm/resourceState/context', 'procapReview.scm.stagedVsWorkingTree'), /scmResourceGroup == workingTree/);
  // VS Code sets no resource context keys (resourceExtname) on Source Control rows: measured in
  // code-server 4.139; a clause on them would hide the items everywhere. The handler checks the extension.
  assert.doesNotMatch(menu('scm/resourceState/context', 'procapReview.scm.headVsWorkingTree'), /resourceExtname/);
  assert.match(menu('editor/title', 'procapReview.describeDiffEditor'), /isInDiffEditor/);
  // the regex in the when clauses matches .png and .PNG only
  const pattern = /resourceExtname =~ \/(.+)\/i/.exec(menu('explorer/context', 'procapReview.describeChange'))![1];
  const regex = new RegExp(pattern, 'i');
  assert.ok(regex.test('.png') && regex.test('.PNG') && !regex.test('.png.txt') && !regex.test('.jpg'));
});

test('the extension declares untrusted-workspace behaviour and restricts its settings there', () => {
  const untrusted = manifest.capabilities.untrustedWorkspaces;
  assert.equal(untrusted.supported, 'limited');
  const settings = Object.keys(manifest.contributes.configuration.properties);
  for (const key of [
    'executionProvider',
    'threads',
    'keyframes',
    'beamWidth',
    'diffThreshold',
    'antiAliasing',
    'maxImagePixels',
    'maxMemoryMB',
  ]) {
    assert.ok(settings.includes(`procapReview.${key}`), `setting procapReview.${key}`);
  }
  assert.deepEqual(
    settings.filter((s) => !untrusted.restrictedConfigurations.includes(s)),
    [],
  );
  assert.equal(manifest.main, './dist/extension.cjs');
});

test('the extension activates for its views and for workspaces with screenshots, not on every start-up', () => {
  const events: string[] = manifest.activationEvents;
  assert.ok(!events.includes('*') && !events.includes('onStartupFinished'), events.join(', '));
  for (const view of manifest.contributes.views.procapReview.map((v: { id: string }) => v.id))
    assert.ok(events.includes(`onView:${view}`), view);
  assert.ok(events.includes('workspaceContains:**/*.png'));
});

test('keybindings: each has a when clause, and none is a shortcut of an operating system or of VS Code', () => {
  const bindings = manifest.contributes.keybindings as Array<{ command: string; key: string; mac?: string; when?: string }>;
  assert.ok(bindings.length >= 3);
  // taken by the OS: macOS Hide Others / Dock / Hide / Minimise / Quit; Xfce show desktop, Ubuntu terminal, lock
  const macReserved = ['cmd+alt+h', 'cmd+alt+d', 'cmd+h', 'cmd+m', 'cmd+q', 'cmd+space', 'cmd+tab', 'cmd+alt+esc'];
  const pcReserved = ['ctrl+alt+d', 'ctrl+alt+t', 'ctrl+alt+l', 'ctrl+alt+delete'];
  // VS Code's defaults after Ctrl+K Ctrl+Shift (workbench of code-server 4.139) and Ctrl+K D (compare with saved)
  const vscodeDefaults = ['c', 'l', 'n', 's', 'w'].map((k) => `ctrl+k ctrl+shift+${k}`).concat(['ctrl+k d', 'ctrl+k h']);
  for (const binding of bindings) {
    assert.ok((binding.when ?? '').trim() !== '', `${binding.command} (${binding.key}) has no when clause`);
    assert.ok(binding.mac, `${binding.command} has no macOS key`);
    const pc = binding.key.toLowerCase();
    const mac = binding.mac!.toLowerCase();
    for (const part of pc.split(' ')) {
      assert.ok(!pcReserved.includes(part), `${binding.command}: ${part} is an OS shortcut`);
      // on Windows Ctrl+Alt is AltGr, which types characters on many keyboard layouts
      assert.doesNotMatch(part, /\balt\b/, `${binding.command}: ${binding.key} uses Alt (AltGr on Windows)`);
    }
    for (const part of mac.split(' ')) assert.ok(!macReserved.includes(part), `${binding.command}: ${part} is a macOS shortcut`);
    assert.ok(!vscodeDefaults.includes(pc), `${binding.command}: ${binding.key} is a VS Code default`);
    assert.equal(mac, pc.replace(/ctrl\+/g, 'cmd+'), `${binding.command}: the macOS key should be the same chord with Cmd`);
  }
  // the two that share a key must never apply at once: one needs a diff editor, the other its absence
  const [vsHead, diff] = ['procapReview.describeVsHead', 'procapReview.describeDiffEditor'].map((c) =>
    bindings.find((b) => b.command === c)!,
  );
  assert.equal(vsHead.key, diff.key);
  assert.match(vsHead.when!, /!\(isInDiffEditor/);
  assert.match(diff.when!, /&& \(isInDiffEditor/);
  assert.match(vsHead.when!, /isWorkspaceTrusted/);
});

test('marketplace: icon, categories, keywords, licence, changelog and a product README packaged with their images', () => {
  assert.equal(manifest.icon, 'media/icon.png');
  const icon = PNG.sync.read(readFileSync(new URL(manifest.icon, root)));
  assert.deepEqual([icon.width, icon.height], [128, 128]);
  let opaque = 0;
  for (let i = 3; i < icon.data.length; i += 4) if (icon.data[i] === 255) opaque++;
  assert.ok(opaque > 128 * 128 * 0.5, 'the icon is mostly empty');
  const known = [
    'Programming Languages',
    'Snippets',
    'Linters',
    'Themes',
    'Debuggers',
    'Formatters',
    'Keymaps',
    'SCM Providers',
    'Other',
    'Extension Packs',
    'Language Packs',
    'Data Science',
    'Machine Learning',
    'Visualization',
    'Notebooks',
    'Education',
    'Testing',
    'AI',
    'Chat',
  ];
  assert.ok(manifest.categories.length > 0);
  for (const category of manifest.categories) assert.ok(known.includes(category), `unknown marketplace category ${category}`);
  assert.ok(manifest.categories.includes('Testing') && manifest.categories.includes('Visualization'));
  assert.ok(manifest.keywords.length >= 3 && manifest.keywords.length <= 30, 'vsce allows at most 30 keywords');
  assert.equal(manifest.license, 'MIT');
  assert.match(readFileSync(new URL('LICENSE', root), 'utf8'), /^MIT License\n/);
  assert.match(readFileSync(new URL('CHANGELOG.md', root), 'utf8'), new RegExp(`^## ${manifest.version.replace(/\./g, '\\.')}$`, 'm'));
  const ignore = readFileSync(new URL('.vscodeignore', root), 'utf8').split('\n');
  for (const line of ['!media/**', '!LICENSE*', '!CHANGELOG.md']) assert.ok(ignore.includes(line), `.vscodeignore lacks ${line}`);
  // the package's README is the product README, and every image it shows is packaged (under media/)
  assert.match(readFileSync(new URL('scripts/package-vsix.sh', root), 'utf8'), /--readme-path README\.marketplace\.md/);
  const readme = readFileSync(new URL('README.marketplace.md', root), 'utf8');
  assert.doesNotMatch(readme, /npm run|scripts\/|issue \d/i, 'the product README reads like the developer README');
  const images = [...readme.matchAll(/!\[[^\]]*\]\(([^)\s]+)\)/g)].map((m) => m[1]);
  assert.ok(images.length >= 1);
  for (const image of images) {
    assert.match(image, /^media\//, `${image} is not under media/, which the VSIX carries`);
    assert.ok(existsSync(new URL(image, root)), `${image} does not exist`);
  }
  for (const command of ['Describe Change', 'Snapshot Test Failures', 'Changed Screenshots']) assert.ok(readme.includes(command));
  for (const binding of manifest.contributes.keybindings as Array<{ key: string }>) {
    const shown = binding.key
      .replace(/(^| )([a-z])/g, (_m: string, s: string, c: string) => s + c.toUpperCase())
      .replace(/\+([a-z])/g, (_m: string, c: string) => '+' + c.toUpperCase());
    assert.ok(readme.includes(shown), `the README does not show the keybinding ${shown}`);
  }
});
