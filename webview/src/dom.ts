// Tiny DOM builder. Text always goes in as textContent (never innerHTML), so captions and file
// names cannot inject markup. Inline style attributes are refused: the panel's CSP has no
// 'unsafe-inline' for styles; dynamic styles are set through element.style (CSSOM), which the
// CSP allows.

type Attributes = Record<string, string | number | boolean | undefined>;
type Child = Node | string | undefined | false;

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attributes?: Attributes, ...children: Child[]): HTMLElementTagNameMap[K];
export function h(tag: string, attributes?: Attributes, ...children: Child[]): HTMLElement;
export function h(tag: string, attributes: Attributes = {}, ...children: Child[]): HTMLElement {
  const element = document.createElement(tag);
  setAttributes(element, attributes);
  append(element, children);
  return element;
}

const SVG_NS = 'http://www.w3.org/2000/svg';

export function svg(tag: string, attributes: Attributes = {}, ...children: Child[]): SVGElement {
  const element = document.createElementNS(SVG_NS, tag);
  setAttributes(element, attributes);
  append(element, children);
  return element;
}

function setAttributes(element: Element, attributes: Attributes): void {
  for (const [name, value] of Object.entries(attributes)) {
    if (name === 'style') throw new Error('inline style attributes are not allowed by the panel CSP: use element.style');
    if (value === undefined || value === false) continue;
    element.setAttribute(name, value === true ? '' : String(value));
  }
}

function append(element: Element, children: Child[]): void {
  for (const child of children) {
    if (child === undefined || child === false) continue;
    element.append(typeof child === 'string' ? document.createTextNode(child) : child);
  }
}

export function clear(element: Element): void {
  while (element.firstChild) element.firstChild.remove();
}

/** How a region is named to the user: the core numbers regions from 1; id 0 is the whole-screen pass. */
export function regionName(id: number): string {
  return id === 0 ? 'whole screen' : `region ${id}`;
}
