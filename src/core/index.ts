// Public surface of the core pixel pipeline (no vscode import anywhere under src/core).
export * from './image.js';
export * from './diff.js';
export * from './regions.js';
export * from './crop.js';
