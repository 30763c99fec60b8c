/**
 * The Kubernetes Indexed Job in deploy/k8s/rejudge-job.yaml (docs/deploy.md): it parses, it is
 * an Indexed Job of N completions whose pod i runs `reprise rejudge --shard i/N` with no
 * queue, every flag of that command line is one the CLI takes, and each index writes its own
 * shard file.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { parse as parseFlags } from '../../app/cli/args.js';
import { rejudgeFlags } from '../../app/cli/commands/rejudge.js';
import { parseShard } from '../../app/rejudge/index.js';
import { ROOT } from '../helpers/cli.js';

interface JobDoc {
  apiVersion: string;
  kind: string;
  spec: {
    completionMode: string;
    completions: number;
    parallelism: number;
    template: { spec: { restartPolicy: string; containers: { command: string[]; args: string[]; env?: unknown[] }[] } };
  };
}

/** The command line pod `index` runs: the shell's words after `exec node …/reprise.js`, with the index put in. */
function podArgs(doc: JobDoc, index: number): string[] {
  const c = doc.spec.template.spec.containers[0]!;
  expect(c.command).toEqual(['sh', '-c']);
  const line = c.args[0]!.replace(/\$JOB_COMPLETION_INDEX/g, String(index));
  const words = [...line.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]!);
  const at = words.findIndex((w) => w.endsWith('reprise.js'));
  expect(words.slice(0, at)).toEqual(['exec', 'node']);
  return words.slice(at + 1);
}

describe('deploy/k8s/rejudge-job.yaml', () => {
  const doc = parseYaml(readFileSync(join(ROOT, 'deploy', 'k8s', 'rejudge-job.yaml'), 'utf8')) as JobDoc;

  it('is an Indexed Job whose pods run rejudge --shard $JOB_COMPLETION_INDEX/N, N its completions, without a queue', () => {
    expect([doc.apiVersion, doc.kind, doc.spec.completionMode]).toEqual(['batch/v1', 'Job', 'Indexed']);
    const n = doc.spec.completions;
    expect(doc.spec.parallelism).toBe(n);
    expect(doc.spec.template.spec.restartPolicy).toBe('Never');
    expect(doc.spec.template.spec.containers[0]!.args[0]).toContain(`--shard "$JOB_COMPLETION_INDEX/${n}"`);
    const outs = new Set<string>();
    for (const i of [0, 1, n - 1]) {
      const args = podArgs(doc, i);
      expect(args[0]).toBe('rejudge');
      const { values, positionals } = parseFlags(args.slice(1), rejudgeFlags(), 'usage');
      expect(positionals).toHaveLength(1);
      expect(parseShard(String(values['shard']))).toEqual({ index: i, count: n });
      expect(values['queue']).toBeUndefined();
      outs.add(String(values['out']));
    }
    expect(outs.size).toBe(3);
  });
});
