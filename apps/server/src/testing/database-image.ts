import { existsSync } from 'node:fs';
import { readFile, rename, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { migratedImage, migratedImageKey } from '../db/client';

/**
 * The migrated in-memory database every test app starts from, made once per set of migrations
 * and kept in the temporary folder: test files run in separate processes, and each used to pay
 * PostgreSQL's initdb and every migration (about 1.8 s of CPU) for each app it opened.
 */
let loaded: Promise<Blob> | null = null;

const load = async (): Promise<Blob> => {
  const file = path.join(os.tmpdir(), `switchboard-test-db-${await migratedImageKey()}.tar`);
  if (existsSync(file)) return new Blob([await readFile(file)]);
  const image = await migratedImage();
  // Written under a name of its own, then renamed: a process reading it never sees half of it.
  const partial = `${file}.${process.pid}.partial`;
  await writeFile(partial, Buffer.from(await image.arrayBuffer()));
  await rename(partial, file);
  return image;
};

export const testDatabaseImage = (): Promise<Blob> => {
  loaded ??= load().catch((error) => {
    loaded = null;
    throw error;
  });
  return loaded;
};
