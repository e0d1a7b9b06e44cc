import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  cpSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import type { Stage } from './dockerfile.ts';
import { REPO_ROOT } from './paths.ts';

/** What the build context leaves out (.dockerignore) or the build stage deletes (`rm -rf …/test`). */
const LEFT_OUT = new Set(['test', 'dist', '.turbo', 'coverage', '.switchboard', '.env']);

/** The image's filesystem, as far as a service sees it, in a temporary folder. */
export interface RuntimeLayout {
  /** Stands for `/app`: what the runtime stage copies, read-only. */
  app: string;
  /** Stands for the image's `/tmp`: writable by every user, sticky. */
  tmp: string;
  /** Holds the image's `node` (the one these tests run on), for the service's PATH. */
  bin: string;
  /** Deletes it all. */
  remove(): void;
}

/**
 * chmod of a tree; symlinks (pnpm's node_modules) are left alone, as chmod would follow them, and so
 * is `node_modules`, whose files may be hard links shared with the checkout.
 */
function setMode(path: string, dirMode: number, fileMode: number): void {
  const stat = lstatSync(path);
  if (stat.isSymbolicLink() || basename(path) === 'node_modules') return;
  if (!stat.isDirectory()) {
    chmodSync(path, fileMode);
    return;
  }
  chmodSync(path, dirMode);
  for (const entry of readdirSync(path)) setMode(join(path, entry), dirMode, fileMode);
}

/**
 * Puts `from` at `to` as hard links (no data copied) when both are on one filesystem, else as a
 * symlink. Hard links let the image's user read the files even when the checkout sits in a folder only
 * its owner may enter (a `mktemp -d` is 0700), as a container's user reads its own copy.
 */
function linkTree(from: string, to: string): void {
  if (spawnSync('cp', ['-al', from, to]).status === 0) return;
  rmSync(to, { recursive: true, force: true });
  symlinkSync(from, to);
}

/** A path of the image (`/app/x`, or `./x` from the WORKDIR `/app`) inside the layout's `app`. */
const inApp = (app: string, path: string) => join(app, path.replace(/^(\/app\/?|\.\/?)/, ''));

/**
 * Lays out `/app` as the Dockerfile's runtime stage does: each `COPY --from=build /app/<x> <dest>`
 * of the stage is copied from the repository (without tests, builds and caches), then everything is
 * made read-only, as root-owned files are for the image's user. `node_modules` is the
 * repository's installed tree, hard-linked rather than copied (see `linkTree`), and `bin/node` the
 * node these tests run on: the workspace's own links inside each package
 * (`examples/customer-service/orders/node_modules/@switchboard/service` → `packages/service`) are copied as they are, so
 * they resolve inside the layout.
 */
export function buildRuntimeLayout(stage: Stage): RuntimeLayout {
  const root = mkdtempSync(join(tmpdir(), 'switchboard-image-'));
  const app = join(root, 'app');
  const tmp = join(root, 'tmp');
  const bin = join(root, 'bin');
  mkdirSync(app);
  mkdirSync(tmp);
  mkdirSync(bin);
  linkTree(process.execPath, join(bin, 'node'));
  chmodSync(root, 0o755);
  chmodSync(tmp, 0o1777);
  for (const copy of stage.instructions.filter((i) => i.keyword === 'COPY')) {
    const parts = copy.args.split(/\s+/);
    if (!parts.includes('--from=build')) continue;
    const paths = parts.filter((part) => !part.startsWith('--'));
    const destination = paths.at(-1) ?? '';
    for (const source of paths.slice(0, -1)) {
      const relative = source.replace(/^\/app\//, '');
      const target = destination.endsWith('/')
        ? join(inApp(app, destination), basename(relative))
        : inApp(app, destination);
      mkdirSync(dirname(target), { recursive: true });
      if (relative === 'node_modules') {
        linkTree(join(REPO_ROOT, 'node_modules'), target);
        continue;
      }
      cpSync(join(REPO_ROOT, relative), target, {
        recursive: true,
        verbatimSymlinks: true,
        filter: (from) => !LEFT_OUT.has(basename(from)) && !from.endsWith('.tsbuildinfo'),
      });
    }
  }
  setMode(app, 0o555, 0o444);
  return {
    app,
    tmp,
    bin,
    remove: () => {
      setMode(app, 0o755, 0o644);
      rmSync(root, { recursive: true, force: true });
    },
  };
}
