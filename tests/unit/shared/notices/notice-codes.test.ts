import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { languageCodes } from '../../../../src/shared/i18n/languages';
import { NoticeCode, noticeEvents, noticeTemplate, noticeText, type NoticeWording } from '../../../../src/shared/notices/notice-codes';

type Locale = Record<string, Record<string, string>>;
const readLocale = (code: string): Locale =>
  JSON.parse(fs.readFileSync(new URL(`../../../../src/shared/i18n/locales/${code}.json`, import.meta.url), 'utf8')) as Locale;

/** i18next's lookup and {{name}} interpolation, enough for these strings. */
function translatorOf(locale: Locale) {
  return (key: string, params: Record<string, string>) => {
    const [namespace, name] = key.split(/\.(.*)/s) as [string, string];
    const text = locale[namespace]?.[name];
    if (text === undefined) throw new Error(`missing ${key}`);
    return text.replace(/\{\{(\w+)\}\}/g, (_, param: string) => params[param] ?? '');
  };
}

const stored = { title: 'Stored title', content: 'Stored content', remark: null, paymentPrice: null, params: null };
const notice = (fields: Partial<NoticeWording>): NoticeWording => ({ actionType: 1, alarmType: null, ...stored, ...fields });

describe('notices worded by their code', () => {
  it('words every code and event in all 12 languages, with the amount and its currency', () => {
    const coded: NoticeWording[] = [
      notice({ alarmType: NoticeCode.withdrawalRejected, paymentPrice: '250.00', params: { currency: 'USDT' }, remark: 'wrong network' }),
      notice({ alarmType: NoticeCode.depositRejected, paymentPrice: '1200.00', params: { currency: 'USDT' } }),
      notice({ alarmType: NoticeCode.verificationRejected, remark: 'blurred photo' }),
      notice({ alarmType: NoticeCode.loanRejected, paymentPrice: '50000.00', params: { currency: 'USD' } }),
      ...noticeEvents.map((event) => notice({ alarmType: NoticeCode.newMessage, paymentPrice: '10.00', params: { currency: 'USDT', event } })),
    ];
    for (const language of languageCodes) {
      const locale = readLocale(language);
      const translate = translatorOf(locale);
      for (const each of coded) {
        const { title, content } = noticeText(each, translate);
        expect(title, `${language} ${each.alarmType} ${each.params?.event ?? ''}`).not.toBe(stored.title);
        expect(content).not.toMatch(/\{\{/);
        // A text that names the amount names it with its currency.
        const template = locale.notices?.[noticeTemplate(each)!.contentKey.replace('notices.', '')] ?? '';
        if (template.includes('{{amount}}')) expect(content).toContain(`${each.paymentPrice} ${each.params?.currency}`);
      }
    }
    const japanese = translatorOf(readLocale('ja'));
    expect(noticeText(coded[1]!, japanese)).toEqual({ title: '入金が却下されました', content: '1200.00 USDT の入金は却下されました。' });
    const thai = translatorOf(readLocale('th'));
    expect(noticeText(coded[0]!, thai).content).toBe('การถอนเงิน 250.00 USDT ของคุณถูกปฏิเสธ จำนวนเงินได้คืนเข้ากระเป๋าเงินของคุณแล้ว');
  });

  it('shows a custom notice (actionType 4), an unknown code, a 629012 without a known event and a money code without its amount as stored', () => {
    const translate = translatorOf(readLocale('de'));
    const asStored = { title: stored.title, content: stored.content };
    expect(noticeText(notice({ actionType: 4, alarmType: NoticeCode.depositRejected, paymentPrice: '1.00' }), translate)).toEqual(asStored);
    expect(noticeText(notice({ alarmType: 629999 }), translate)).toEqual(asStored);
    expect(noticeText(notice({ alarmType: NoticeCode.newMessage }), translate)).toEqual(asStored);
    expect(noticeText(notice({ alarmType: NoticeCode.newMessage, params: { event: 'somethingElse' } }), translate)).toEqual(asStored);
    expect(noticeText(notice({ alarmType: NoticeCode.depositRejected }), translate)).toEqual(asStored);
    // Without a currency the amount stands alone.
    expect(noticeText(notice({ alarmType: NoticeCode.depositRejected, paymentPrice: '5.00' }), translate).content).toBe('Ihre Einzahlung über 5.00 wurde abgelehnt.');
  });
});
