import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  parseWebviewMessage,
  parseHostMessage,
  MessageValidationError,
  MAX_BOX_COORDINATE,
  MAX_COPY_TEXT_CHARS,
} from '../../src/extension/pure/messages.js';

test('webview messages: each known message is accepted as typed', () => {
  assert.deepEqual(parseWebviewMessage({ type: 'ready' }), { type: 'ready' });
  assert.deepEqual(parseWebviewMessage({ type: 'accept' }), { type: 'accept' });
  assert.deepEqual(parseWebviewMessage({ type: 'copyText', text: 'the button turned red' }), {
    type: 'copyText',
    text: 'the button turned red',
  });
  assert.deepEqual(parseWebviewMessage({ type: 'export', format: 'json' }), { type: 'export', format: 'json' });
  assert.deepEqual(parseWebviewMessage({ type: 'openImage', side: 'after' }), { type: 'openImage', side: 'after' });
  assert.deepEqual(parseWebviewMessage({ type: 'ignoreRegion', box: [0, 4, 10, 12] }), { type: 'ignoreRegion', box: [0, 4, 10, 12] });
  assert.deepEqual(parseWebviewMessage({ type: 'stopIgnoring', box: [300, 0, 400, 48] }), { type: 'stopIgnoring', box: [300, 0, 400, 48] });
});

test('webview messages: exportProcedure names one region by its integer id, nothing else', () => {
  assert.deepEqual(parseWebviewMessage({ type: 'exportProcedure', regionId: 2 }), { type: 'exportProcedure', regionId: 2 });
  assert.deepEqual(parseWebviewMessage({ type: 'exportProcedure', regionId: 0 }), { type: 'exportProcedure', regionId: 0 });
  const refused: Array<[unknown, RegExp]> = [
    [{ type: 'exportProcedure' }, /regionId must be a region id/],
    [{ type: 'exportProcedure', regionId: '2' }, /regionId must be a region id/],
    [{ type: 'exportProcedure', regionId: 1.5 }, /regionId must be a region id/],
    [{ type: 'exportProcedure', regionId: -1 }, /regionId must be a region id/],
    [{ type: 'exportProcedure', regionId: 1, path: '/etc/passwd' }, /unexpected field "path"/],
  ];
  for (const [raw, reason] of refused) {
    assert.throws(
      () => parseWebviewMessage(raw),
      (error: unknown) => error instanceof MessageValidationError && reason.test(error.message),
      JSON.stringify(raw),
    );
  }
});

test('webview messages: an ignore region is four integers in order within the largest image side', () => {
  const refused: Array<[unknown, RegExp]> = [
    [{ type: 'ignoreRegion' }, /ignoreRegion\.box must be \[x0, y0, x1, y1\]/],
    [{ type: 'ignoreRegion', box: [0, 0, 10] }, /four integers/],
    [{ type: 'ignoreRegion', box: [0, 0, 10, 10, 3] }, /four integers/],
    [{ type: 'ignoreRegion', box: '0,0,10,10' }, /four integers/],
    [{ type: 'ignoreRegion', box: [0.5, 0, 10, 10] }, /four integers/],
    [{ type: 'ignoreRegion', box: [-1, 0, 10, 10] }, /four integers/],
    [{ type: 'ignoreRegion', box: [0, 0, MAX_BOX_COORDINATE + 1, 10] }, /from 0 to 65535/],
    [{ type: 'ignoreRegion', box: [0, 0, Number.NaN, 10] }, /four integers/],
    [{ type: 'ignoreRegion', box: [10, 0, 10, 10] }, /x0 < x1 and y0 < y1/],
    [{ type: 'stopIgnoring', box: [0, 9, 10, 3] }, /stopIgnoring\.box must have x0 < x1 and y0 < y1/],
    [{ type: 'ignoreRegion', box: [0, 0, 10, 10], glob: '**' }, /unexpected field "glob"/],
    [{ type: 'stopIgnoring', box: [0, 0, 10, 10], file: '/etc/passwd' }, /unexpected field "file"/],
  ];
  for (const [raw, reason] of refused) {
    assert.throws(
      () => parseWebviewMessage(raw),
      (error: unknown) => error instanceof MessageValidationError && reason.test(error.message),
      JSON.stringify(raw),
    );
  }
  assert.deepEqual(parseWebviewMessage({ type: 'ignoreRegion', box: [0, 0, MAX_BOX_COORDINATE, 1] }).type, 'ignoreRegion');
});

test('webview messages: malformed, unknown and over-long messages are refused with a reason', () => {
  const refused: Array<[unknown, RegExp]> = [
    [null, /must be an object/],
    ['ready', /must be an object/],
    [[{ type: 'ready' }], /must be an object/],
    [{ type: 'runCommand', command: 'workbench.action.terminal.new' }, /unknown webview message type/],
    [{ type: 'ready', path: '/etc/passwd' }, /unexpected field "path"/],
    [{ type: 'accept', target: '/home/user/.bashrc' }, /unexpected field "target"/],
    [{ type: 'export', format: 'exe' }, /export.format/],
    [{ type: 'export', format: 'json', path: '/tmp/x' }, /unexpected field "path"/],
    [{ type: 'openImage', side: '../../secret' }, /openImage.side/],
    [{ type: 'copyText', text: 42 }, /must be a string/],
    [{ type: 'copyText', text: '' }, /empty/],
    [{ type: 'copyText', text: 'x'.repeat(MAX_COPY_TEXT_CHARS + 1) }, /longer than/],
  ];
  for (const [raw, reason] of refused) {
    assert.throws(
      () => parseWebviewMessage(raw),
      (error: unknown) => error instanceof MessageValidationError && reason.test(error.message),
      JSON.stringify(raw)?.slice(0, 80),
    );
  }
});

const tinyPng = 'iVBORw0KGgo=';
function reportMessage(overrides: Record<string, unknown> = {}) {
  return {
    type: 'report',
    title: 'a vs b',
    canAccept: false,
    canExportHtml: false,
    framesPending: false,
    before: { dataUri: `data:image/png;base64,${tinyPng}`, label: 'a.png', width: 10, height: 10 },
    after: { dataUri: `data:image/png;base64,${tinyPng}`, label: 'b.png', width: 10, height: 10 },
    report: {
      summary: 'the button turned red',
      changed: true,
      masked: [[2, 2, 8, 4]],
      regions: [
        {
          id: 0,
          boxBefore: [0, 0, 5, 5],
          boxAfter: [0, 0, 5, 5],
          kind: 'color',
          caption: 'the button turned red',
          confidence: 0.9,
          noiseOnly: false,
          procedure: { frames: [{ width: 96, height: 96, pngBase64: tinyPng }], scores: [0.5], keyframes: [1], imagined: [] },
        },
      ],
    },
    ...overrides,
  };
}

test('host messages: a well-formed report passes, broken ones are refused', () => {
  assert.equal(parseHostMessage(reportMessage()).type, 'report');
  assert.throws(
    () => parseHostMessage(reportMessage({ before: { dataUri: 'https://example.com/a.png', label: 'a', width: 1, height: 1 } })),
    /data:image\/png;base64/,
  );
  const badBox = reportMessage();
  (badBox.report as any).regions[0].boxAfter = [0, 0, 5];
  assert.throws(() => parseHostMessage(badBox), /boxes/);
  const badFrame = reportMessage();
  (badFrame.report as any).regions[0].procedure.frames[0].pngBase64 = '"><script>';
  assert.throws(() => parseHostMessage(badFrame), /not base64/);
  const badDetail = reportMessage();
  (badDetail.report as any).regions[0].detail = 3;
  assert.throws(() => parseHostMessage(badDetail), /detail must be a string/);
  const noMasked = reportMessage();
  delete (noMasked.report as any).masked;
  assert.throws(() => parseHostMessage(noMasked), /report\.masked must be an array/);
  const reversedMask = reportMessage();
  (reversedMask.report as any).masked = [[8, 2, 2, 4]];
  assert.throws(() => parseHostMessage(reversedMask), /report\.masked\[0\] must be \[x0,y0,x1,y1\] with x0 < x1/);
  const badUnder = reportMessage();
  (badUnder.report as any).belowThreshold = { reason: 7 };
  assert.throws(() => parseHostMessage(badUnder), /belowThreshold/);
  const under = reportMessage();
  (under.report as any).belowThreshold = { diffPixels: 3, ratio: 0.03, reason: '3 differing pixels: fewer than minDiffPixels 10' };
  assert.equal(parseHostMessage(under).type, 'report');
  assert.throws(() => parseHostMessage({ type: 'eval', code: '1' }), /unknown host message type/);
  // where the panel writes an ignore region
  assert.equal(parseHostMessage(reportMessage({ ignore: { configFile: 'procap.config.json', glob: 'shots/a.png' } })).type, 'report');
  assert.throws(() => parseHostMessage(reportMessage({ ignore: { configFile: 'procap.config.json' } })), /report\.ignore/);
  assert.throws(() => parseHostMessage(reportMessage({ ignore: { configFile: 'procap.config.json', glob: '' } })), /report\.ignore/);
  assert.throws(() => parseHostMessage(reportMessage({ ignore: 'procap.config.json' })), /report\.ignore/);
  assert.equal(parseHostMessage({ type: 'ignoreFailed', message: 'procap.config.json: not valid JSON' }).type, 'ignoreFailed');
  assert.throws(() => parseHostMessage({ type: 'ignoreFailed' }), /ignoreFailed needs a message/);
  assert.equal(
    parseHostMessage({ type: 'captions', title: 't', captions: [{ id: 0, kind: 'text', caption: 'the title changed', noiseOnly: false }] })
      .type,
    'captions',
  );
  assert.throws(() => parseHostMessage({ type: 'captions', title: 't', captions: [{ id: 0, kind: 'text' }] }), /captions\[0\]/);
});

test('host messages: the procedure frames that follow a report are checked as in a report', () => {
  assert.throws(() => parseHostMessage(reportMessage({ framesPending: 'yes' })), /framesPending must be booleans/);
  assert.equal(parseHostMessage(reportMessage({ framesPending: true })).type, 'report');
  const procedure = { frames: [{ width: 96, height: 96, pngBase64: tinyPng }], scores: [0.5], keyframes: [1], imagined: [] };
  assert.equal(parseHostMessage({ type: 'procedure', title: 't', frames: [{ id: 1, procedure }] }).type, 'procedure');
  assert.equal(parseHostMessage({ type: 'procedure', title: 't', frames: [], error: 'the worker stopped' }).type, 'procedure');
  assert.throws(
    () => parseHostMessage({ type: 'procedure', title: 't', frames: [{ procedure }] }),
    /procedure\.frames\[0\] must be \{id, procedure\}/,
  );
  assert.throws(
    () =>
      parseHostMessage({
        type: 'procedure',
        title: 't',
        frames: [{ id: 1, procedure: { ...procedure, frames: [{ width: 96, height: 96, pngBase64: '"><img>' }] } }],
      }),
    /not base64/,
  );
  assert.throws(() => parseHostMessage({ type: 'procedure', title: 't', frames: [], error: 3 }), /procedure\.error must be a string/);
  // the full-resolution frames are checked as the others
  const full = {
    box: [0, 0, 10, 10],
    scale: 1,
    frames: [{ width: 10, height: 10, pngBase64: tinyPng }],
    imagined: [],
    imaginedShare: [0.5],
  };
  const framed = (f: unknown) => ({ type: 'procedure', title: 't', frames: [{ id: 1, procedure: { ...procedure, full: f } }] });
  assert.equal(parseHostMessage(framed(full)).type, 'procedure');
  assert.throws(() => parseHostMessage(framed({ ...full, box: [0, 0, 10] })), /full\.box must be/);
  assert.throws(() => parseHostMessage(framed({ ...full, scale: 0 })), /full\.scale must be a positive number/);
  assert.throws(() => parseHostMessage(framed({ ...full, frames: [{ width: 10, height: 10, pngBase64: '"><img>' }] })), /not base64/);
  assert.throws(() => parseHostMessage(framed({ ...full, imaginedShare: ['half'] })), /imaginedShare must be numbers/);
});
