import { beforeEach, describe, expect, it, vi } from 'vitest';

// What happened, in order: the preference store's write finishing, and the text changing.
const steps: string[] = [];
vi.mock('../../../../src/app/preferences/preferences', () => ({
  savePreferences: async (change: { language?: string }) => {
    await new Promise((resolve) => setTimeout(resolve, 5));
    steps.push(`stored ${change.language}`);
  },
}));
vi.mock('../../../../src/app/i18n/i18n', () => ({
  changeLanguage: async (code: string) => {
    steps.push(`shown ${code}`);
  },
}));

const { chooseLanguage } = await import('../../../../src/app/i18n/choose-language');

describe('choosing a language', () => {
  beforeEach(() => {
    steps.length = 0;
  });

  it('is stored before the app shows it, so a reload at that moment keeps it', async () => {
    await chooseLanguage('th');
    expect(steps).toEqual(['stored th', 'shown th']);
  });

  it('changes nothing for a code that is not a language', async () => {
    await chooseLanguage('xx');
    expect(steps).toEqual([]);
  });
});
