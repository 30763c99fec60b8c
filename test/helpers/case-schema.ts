/** docs/case.schema.json compiled by ajv (its findings by reference to docs/report.schema.json), for the tests that hold case reports to it. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { ROOT } from './cli.js';

const read = (name: string): object => JSON.parse(readFileSync(join(ROOT, 'docs', name), 'utf8')) as object;

export function caseSchemaValidator() {
  const ajv = new Ajv2020({ allErrors: true, strict: true });
  ajv.addSchema(read('report.schema.json'));
  return ajv.compile(read('case.schema.json'));
}
