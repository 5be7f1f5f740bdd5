// Helpers shared by the data engine's integration tests.
import { readdirSync, statSync } from 'node:fs';
import * as path from 'node:path';

/** Every file below `dir`, as paths relative to it, sorted: two renders compare file for file. */
export function listFiles(dir: string, prefix = ''): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const rel = path.join(prefix, name);
      return statSync(path.join(dir, name)).isDirectory() ? listFiles(path.join(dir, name), rel) : [rel];
    });
}
