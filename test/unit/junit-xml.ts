// A strict little XML reader for the tests of the JUnit output: elements, attributes and text with
// the five predefined entities and character references; anything else (an unescaped "<" or "&", a
// tag closed out of order, two roots, text outside the root) throws. Enough to check the JUnit
// shape (testsuites > testsuite > testcase > failure | error) without an XML library.
import assert from 'node:assert/strict';

export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  text: string;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decode(text: string): string {
  if (/<|&(?!(amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);)/.test(text)) throw new Error(`unescaped markup in ${JSON.stringify(text)}`);
  return text.replace(/&(#x[0-9a-fA-F]+|#\d+|\w+);/g, (_, e: string) =>
    e.startsWith('#x')
      ? String.fromCodePoint(parseInt(e.slice(2), 16))
      : e.startsWith('#')
        ? String.fromCodePoint(Number(e.slice(1)))
        : ENTITIES[e],
  );
}

export function parseXml(xml: string): XmlElement {
  let at = 0;
  const decl = /^<\?xml[^?]*\?>\s*/.exec(xml);
  if (decl) at = decl[0].length;
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  while (at < xml.length) {
    const lt = xml.indexOf('<', at);
    const text = lt < 0 ? xml.slice(at) : xml.slice(at, lt);
    if (text.length) {
      if (!stack.length) {
        if (text.trim()) throw new Error(`text outside the root: ${JSON.stringify(text)}`);
      } else stack[stack.length - 1].text += decode(text);
    }
    if (lt < 0) break;
    const gt = xml.indexOf('>', lt);
    if (gt < 0) throw new Error('unterminated tag');
    const tag = xml.slice(lt + 1, gt);
    at = gt + 1;
    if (tag.startsWith('/')) {
      const open = stack.pop();
      if (!open || open.name !== tag.slice(1)) throw new Error(`</${tag.slice(1)}> closes <${open?.name}>`);
      continue;
    }
    const selfClosing = tag.endsWith('/');
    const m = /^([A-Za-z_][\w.-]*)((?:\s+[A-Za-z_][\w.-]*="[^"]*")*)\s*\/?$/.exec(tag);
    if (!m) throw new Error(`malformed tag <${tag}>`);
    const attributes: Record<string, string> = {};
    for (const a of m[2].matchAll(/([A-Za-z_][\w.-]*)="([^"]*)"/g)) {
      if (a[1] in attributes) throw new Error(`attribute ${a[1]} twice in <${m[1]}>`);
      attributes[a[1]] = decode(a[2]);
    }
    const element: XmlElement = { name: m[1], attributes, children: [], text: '' };
    if (stack.length) stack[stack.length - 1].children.push(element);
    else if (root) throw new Error('two root elements');
    else root = element;
    if (!selfClosing) stack.push(element);
  }
  if (stack.length) throw new Error(`<${stack[stack.length - 1].name}> is not closed`);
  if (!root) throw new Error('no root element');
  return root;
}

/**
 * Checks the JUnit shape CI tools read: testsuites > testsuite(s) > testcase(s), each test case with at
 * most one failure or error, the counts of the suite matching its cases. Returns the test cases.
 */
export function checkJunit(xml: string): XmlElement[] {
  const root = parseXml(xml);
  assert.equal(root.name, 'testsuites');
  const cases: XmlElement[] = [];
  for (const suite of root.children) {
    assert.equal(suite.name, 'testsuite');
    assert.ok(suite.attributes.name !== undefined);
    for (const c of suite.children) {
      assert.equal(c.name, 'testcase');
      assert.ok(c.attributes.name && c.attributes.classname !== undefined && /^\d+(\.\d+)?$/.test(c.attributes.time));
      assert.ok(c.children.length <= 1, `${c.attributes.name}: more than one outcome`);
      for (const o of c.children) assert.ok(['failure', 'error', 'skipped'].includes(o.name), `<${o.name}> in a testcase`);
    }
    const count = (name: string) => suite.children.filter((c) => c.children[0]?.name === name).length;
    assert.equal(Number(suite.attributes.tests), suite.children.length);
    assert.equal(Number(suite.attributes.failures), count('failure'));
    assert.equal(Number(suite.attributes.errors), count('error'));
    cases.push(...suite.children);
  }
  assert.equal(Number(root.attributes.tests), cases.length);
  return cases;
}
