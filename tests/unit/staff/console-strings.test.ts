import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import staffEnglish from '../../../src/staff/i18n/en.json';
import { sectionsFor } from '../../../src/staff/navigation';
import { reviewDecisions, reviewKinds, reviewStatuses, staffRoles } from '../../../src/shared/staff/roles';

const staffFolder = fileURLToPath(new URL('../../../src/staff/', import.meta.url));

function sourceFiles(folder: string): string[] {
  return fs.readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

function has(key: string): boolean {
  let node: unknown = staffEnglish;
  for (const part of key.split('.')) {
    if (typeof node !== 'object' || node === null || !(part in node)) return false;
    node = (node as Record<string, unknown>)[part];
  }
  return typeof node === 'string';
}

describe('the console strings', () => {
  it('has an English string for every staff key the console names', () => {
    const keys = new Set<string>();
    for (const file of sourceFiles(staffFolder)) {
      for (const match of fs.readFileSync(file, 'utf8').matchAll(/['`](staff\.[a-z_.]+[a-z_])['`]/gi)) keys.add(match[1]!);
    }
    expect(keys.size).toBeGreaterThan(100);
    expect([...keys].filter((key) => !has(key))).toEqual([]);
  });

  it('names every role, review kind, status and decision, and every section of the menu', () => {
    const families = [
      ...staffRoles.map((role) => `staff.roles.${role}`),
      ...reviewKinds.map((kind) => `staff.kinds.${kind}`),
      ...reviewStatuses.map((status) => `staff.statuses.${status}`),
      ...reviewDecisions.map((decision) => `staff.decisions.${decision}`),
      ...['spread', 'feeRate', 'overnightRate', 'multiple', 'minCount', 'maxCount'].map((field) => `staff.products.problems.${field}`),
      ...sectionsFor(['admin']).map((section) => section.labelKey),
    ];
    expect(families.filter((key) => !has(key))).toEqual([]);
  });
});
