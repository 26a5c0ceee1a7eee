import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { totpCode } from '../../server/auth/totp';
import { createLedger, type Ledger } from '../../server/modules/ledger/ledger';
import { HouseAccountKind } from '../../server/modules/ledger/ledger-kinds';
import { ErrorCode } from '../../src/shared/errors/catalogue';
import { encodeField } from '../../src/shared/money/encoded-field';
import { formatMoney, money } from '../../src/shared/money/money';
import { readAccessToken } from '../../src/shared/session/token';
import { startTestServer, testBackends, type TestServer } from './harness';
import { call, loginByEmail, password, setSwitch } from './identity-support';
import { decide, decided, newCustomer } from './reviews-support';
import { creditWallet, keyedCall, moneyCustomer, saveAddress, tronAddress, usdtTrc20Of, verifyJunior, type CoinNetwork, type Envelope, type MoneyCustomer } from './support/money-controls';
import { createStaffAndSignIn } from './support/staff';
import { jpegImage, multipartBody, multipartCall } from './uploads-support';

type Customer = MoneyCustomer & { address: string; email: string };
type Staff = Awaited<ReturnType<typeof createStaffAndSignIn>>;

const dayMs = 24 * 3600 * 1000;

/**
 * The money controls of issue 31, tried as the attacks of its findings were: four-eyes
 * split into small withdrawals and deposits (finding 1 and 2), a deposit of any size
 * (finding 2), a payout to an address never saved (finding 7); then the limits by
 * verification level, the cooling-off hold and the second factor. The server keeps its
 * defaults (junior verification to withdraw, a 24-hour hold) and FOUR_EYES_USD 1,000.
 */
describe.each(testBackends())('money controls on $name', (backend) => {
  let server: TestServer;
  let ledger: Ledger;
  let financeA: Staff;
  let financeB: Staff;
  let compliance: Staff;
  let admin: Staff;
  let secondAdmin: Staff;
  let usdtTrc20: CoinNetwork;

  beforeAll(async () => {
    server = await startTestServer(backend, { FOUR_EYES_USD: '1000', CODES_SENT_PER_10_MIN: '500', CODE_CHECKS_PER_10_MIN: '500', LOGIN_ATTEMPTS_PER_15_MIN: '500' });
    ledger = createLedger(server.database.db);
    [financeA, financeB, compliance, admin, secondAdmin] = await Promise.all([
      createStaffAndSignIn(server, { roles: ['finance'] }),
      createStaffAndSignIn(server, { roles: ['finance'] }),
      createStaffAndSignIn(server, { roles: ['compliance'] }),
      createStaffAndSignIn(server, { roles: ['admin'] }),
      createStaffAndSignIn(server, { roles: ['admin'] }),
    ]);
    usdtTrc20 = await usdtTrc20Of(server, (await newCustomer(server, 'probe')).token);
  });
  afterAll(async () => {
    await server?.close();
  });

  const moneyCall = (path: string, body: unknown, token: string, key: string = crypto.randomUUID()): Promise<Envelope> => keyedCall(server, path, body, token, key);
  const fund = (uid: number, amount: string) => creditWallet(server, ledger, uid, amount);
  const house = async (kind: string) => ledger.balance({ owner: null, book: 'real', kind: kind as never, currency: 'USDT' });

  const customer = async (prefix = 'controlled'): Promise<Customer> => {
    const session = await moneyCustomer(server, prefix);
    const email = ((await call(server, '/v1/waa/user/info', {}, session.token)).data as { email: string }).email;
    return { ...session, email, address: tronAddress() };
  };
  /** The cooling-off of every change so far, waited out (the clock moved on a day). */
  const waitOutHold = async (uid: number) => {
    const earlier = (column: 'created_at' | 'updated_at' | 'security_changed_at') => ({ [column]: new Date(Date.now() - dayMs - 60_000) });
    await server.database.db.updateTable('saved_crypto_address').set(earlier('created_at')).where('uid', '=', uid).execute();
    await server.database.db.updateTable('bank_card').set({ ...earlier('created_at'), ...earlier('updated_at') }).where('uid', '=', uid).execute();
    await server.database.db.updateTable('app_user').set(earlier('security_changed_at')).where('uid', '=', uid).where('security_changed_at', 'is not', null).execute();
  };
  /** A customer who may withdraw: junior-verified, an address saved a day ago, the wallet funded. */
  const withdrawer = async (funds = '10000'): Promise<Customer> => {
    const who = await customer('withdrawer');
    await verifyJunior(server, who, compliance.token);
    const saved = await saveAddress(server, who, usdtTrc20.id, who.address);
    expect(saved.code, saved.msg).toBe(0);
    await waitOutHold(who.uid);
    await fund(who.uid, funds);
    return who;
  };
  const withdraw = (who: Customer, num: string, practicalNum: string, extra: { address?: string; totpCode?: string; token?: string } = {}) =>
    moneyCall(
      '/v1/waa/withdraw/submit',
      {
        num,
        practicalNum,
        currencyId: usdtTrc20.currencyId,
        coinId: usdtTrc20.id,
        paymentAddress: encodeField(extra.address ?? who.address, who.aesKey),
        locale: 'en',
        ...(extra.totpCode ? { totpCode: extra.totpCode } : {}),
      },
      extra.token ?? who.token,
    );
  const reviewsOf = (uid: number, kind: 'withdrawal' | 'deposit') =>
    server.database.db.selectFrom('review_item').select(['id', 'status', 'needs_two_approvals']).where('kind', '=', kind).where('uid', '=', uid).orderBy('id').execute();
  const limitsOf = async (who: Customer) => {
    const answer = await call(server, '/v1/waa/withdraw/limits', {}, who.token);
    expect(answer.code, answer.msg).toBe(0);
    return answer.data as { level: string; dailyLeftUsd: string; monthlyLeftUsd: string; holdUntilTs: number | null };
  };
  const deposit = async (who: Customer, amt: string, locale = 'en') => {
    const body = multipartBody(
      { metaData: JSON.stringify({ coinId: usdtTrc20.id, said: usdtTrc20.said, locale, amt }) },
      [{ field: 'depositProof', filename: 'transfer.jpg', bytes: await jpegImage(), type: 'image/jpeg' }],
    );
    return multipartCall(server, '/v1/waa/deposit/submit', body, who.token, crypto.randomUUID());
  };

  describe('finding 1: four-eyes cannot be split', () => {
    it('asks two approvers of the withdrawal that takes a customer’s 24 hours to FOUR_EYES_USD, so one member pays out at most 999', async () => {
      const who = await withdrawer();
      const paidBefore = await house(HouseAccountKind.withdrawals);
      // Before: three 999 withdrawals were each approved by one member alone: 2,997 paid out.
      expect((await withdraw(who, '999', '998')).code).toBe(0);
      const [first] = await reviewsOf(who.uid, 'withdrawal');
      await decided(server, financeA.token, { kind: 'withdrawal', id: first!.id, decision: 'approve' }, 'approved');

      expect((await withdraw(who, '999', '998')).code).toBe(0);
      const [, second] = await reviewsOf(who.uid, 'withdrawal');
      expect(second!.needs_two_approvals).toBe(true);
      await decided(server, financeA.token, { kind: 'withdrawal', id: second!.id, decision: 'approve' }, 'awaiting_second');
      // The same member again: refused; nothing more is paid.
      expect((await decide(server, financeA.token, { kind: 'withdrawal', id: second!.id, decision: 'approve' })).code).toBe(ErrorCode.REVIEW_SAME_APPROVER);
      expect(formatMoney((await house(HouseAccountKind.withdrawals)) - paidBefore)).toBe('998.00');
      await decided(server, financeB.token, { kind: 'withdrawal', id: second!.id, decision: 'approve' }, 'approved');
      expect(formatMoney((await house(HouseAccountKind.withdrawals)) - paidBefore)).toBe('1996.00');

      // The staff see why: the day's total beside the item.
      const detail = await call(server, '/v1/staff/reviews/get', { kind: 'withdrawal', id: second!.id }, financeA.token);
      expect((detail.data as { item: { facts: Record<string, string> } }).item.facts).toMatchObject({ amountUsd: '999.00', last24hUsd: '1998.00' });
    });

    it('places one of ten parallel withdrawals; the nine others are refused with 1070 and hold nothing', async () => {
      const who = await withdrawer('10000');
      // Before: ten were pending at once.
      const answers = await Promise.all(Array.from({ length: 10 }, () => withdraw(who, '999', '998')));
      expect(answers.filter((answer) => answer.code === 0)).toHaveLength(1);
      expect(answers.filter((answer) => answer.code === ErrorCode.WITHDRAWAL_UNDER_REVIEW)).toHaveLength(9);
      expect(await reviewsOf(who.uid, 'withdrawal')).toHaveLength(1);
      expect(formatMoney((await ledger.walletBalances(who.uid)).get('USDT') ?? 0n)).toBe('9001.00');
    });
  });

  describe('finding 2: deposits have a maximum and four-eyes', () => {
    it('refuses a deposit above DEPOSIT_MAX_USD or the level’s cap with 1075, recording nothing', async () => {
      const who = await customer('bigdepositor');
      // Before: 1,000,000,000,000 USDT was queued and credited on one approval.
      const huge = await deposit(who, '1000000000000');
      expect(huge.code).toBe(ErrorCode.DEPOSIT_OVER_MAXIMUM);
      expect(huge.msg).toContain('10000.00');
      // The answer names the maximum for the form to show beside the amount.
      expect(huge.data).toEqual({ maxUsd: '10000.00' });
      // An unverified customer's cap is 10,000 (config/limits' default for none).
      expect((await deposit(who, '10000.01')).code).toBe(ErrorCode.DEPOSIT_OVER_MAXIMUM);
      expect(await reviewsOf(who.uid, 'deposit')).toEqual([]);
    });

    it('asks two approvers of a deposit of FOUR_EYES_USD or more, and of small deposits adding up to it in 24 hours', async () => {
      const who = await customer('depositor');
      const before = (await ledger.walletBalances(who.uid)).get('USDT') ?? 0n;
      expect((await deposit(who, '5000')).code).toBe(0);
      const [large] = await reviewsOf(who.uid, 'deposit');
      await decided(server, financeA.token, { kind: 'deposit', id: large!.id, decision: 'approve' }, 'awaiting_second');
      expect((await ledger.walletBalances(who.uid)).get('USDT') ?? 0n).toBe(before);
      await decided(server, financeB.token, { kind: 'deposit', id: large!.id, decision: 'approve' }, 'approved');
      expect(((await ledger.walletBalances(who.uid)).get('USDT') ?? 0n) - before).toBe(money('5000'));

      // German's minimum deposit is 30 USD (English's 1,000), so a claim can be split below the threshold.
      const splitter = await customer('splitter');
      expect((await deposit(splitter, '600', 'de')).code).toBe(0);
      expect((await deposit(splitter, '600', 'de')).code).toBe(0);
      expect((await reviewsOf(splitter.uid, 'deposit')).map((item) => item.needs_two_approvals)).toEqual([false, true]);
    });
  });

  describe('finding 7: the server pays only to a saved destination', () => {
    it('refuses a withdrawal to an address the customer never saved (1074), holding nothing', async () => {
      const who = await withdrawer('500');
      // Before: the server paid a withdrawal to an address that was never saved.
      const answer = await withdraw(who, '100', '99', { address: tronAddress() });
      expect(answer.code).toBe(ErrorCode.DESTINATION_NOT_SAVED);
      // Another customer's saved address is not this one's either.
      const other = await withdrawer('0');
      expect((await withdraw(who, '100', '99', { address: other.address })).code).toBe(ErrorCode.DESTINATION_NOT_SAVED);
      expect(await reviewsOf(who.uid, 'withdrawal')).toEqual([]);
      expect((await withdraw(who, '100', '99')).code).toBe(0);
    });

    it('in the typed-address mode (NO_WALLET_WITHDRAW) keeps a typed address as a destination first: checked (1073), then its cooling-off (1072), then paid', async () => {
      const who = await withdrawer('500');
      const typed = tronAddress();
      const typo = `${typed.slice(0, -1)}${typed.endsWith('A') ? 'B' : 'A'}`;
      await setSwitch(server, 'NO_WALLET_WITHDRAW', true);
      try {
        // Crypto withdrawal stays on: the mode hides the saved list, it does not turn crypto off.
        expect((await call(server, '/v1/waa/withdraw/status', {}, who.token)).data).toMatchObject({ cryptoEnabled: true });
        expect((await withdraw(who, '100', '99', { address: typo })).code).toBe(ErrorCode.DESTINATION_ADDRESS_INVALID);
        const savedCount = async () => (await server.database.db.selectFrom('saved_crypto_address').select('id').where('uid', '=', who.uid).execute()).length;
        expect(await savedCount()).toBe(1);
        // A new typed address is kept, and waits out the cooling-off as a saved one does.
        expect((await withdraw(who, '100', '99', { address: typed })).code).toBe(ErrorCode.WITHDRAWAL_ON_HOLD);
        expect(await savedCount()).toBe(2);
        expect(await reviewsOf(who.uid, 'withdrawal')).toEqual([]);
        await waitOutHold(who.uid);
        expect((await withdraw(who, '100', '99', { address: typed })).code).toBe(0);
        expect(await savedCount()).toBe(2);
      } finally {
        await setSwitch(server, 'NO_WALLET_WITHDRAW', false);
      }
      // Out of the mode an address must be saved first again.
      expect((await withdraw(who, '100', '99', { address: tronAddress() })).code).toBe(ErrorCode.DESTINATION_NOT_SAVED);
    });

    it('refuses to save an address that fails its network’s format or checksum (1073), with the network named', async () => {
      const who = await customer('typo');
      const good = tronAddress();
      const typo = `${good.slice(0, -1)}${good.endsWith('A') ? 'B' : 'A'}`;
      const refused = await saveAddress(server, who, usdtTrc20.id, typo);
      expect(refused.code).toBe(ErrorCode.DESTINATION_ADDRESS_INVALID);
      expect(refused.msg).toContain('TRC20');
      expect((await saveAddress(server, who, usdtTrc20.id, '0x71C7656EC7ab88b098defB751B7401B5f6d8976F')).code).toBe(ErrorCode.DESTINATION_ADDRESS_INVALID);
      expect((await saveAddress(server, who, usdtTrc20.id, good)).code).toBe(0);
    });
  });

  describe('limits by verification level', () => {
    it('refuses withdrawals without junior verification (1067), on withdraw/status too', async () => {
      const who = await customer('unverified');
      expect((await saveAddress(server, who, usdtTrc20.id, who.address)).code).toBe(0);
      await waitOutHold(who.uid);
      await fund(who.uid, '500');
      // The answer names the level to reach, for the screen to lead there.
      expect(await call(server, '/v1/waa/withdraw/status', {}, who.token)).toMatchObject({ code: ErrorCode.WITHDRAWAL_NEEDS_VERIFICATION, data: { requiredLevel: 'junior' } });
      expect((await withdraw(who, '100', '99')).code).toBe(ErrorCode.WITHDRAWAL_NEEDS_VERIFICATION);
      expect((await limitsOf(who)).level).toBe('none');
    });

    it('answers what is left of the day’s and the month’s limit, and refuses more with 1071 and the amount left', async () => {
      const limits = (await call(server, '/v1/staff/config/limits', {}, admin.token)).data as { limits: Record<string, Record<string, string>> };
      expect(limits.limits.junior).toEqual({ dailyWithdrawUsd: '10000.00', monthlyWithdrawUsd: '50000.00', depositMaxUsd: '100000.00' });
      const who = await withdrawer('20000');
      expect(await limitsOf(who)).toEqual({ level: 'junior', dailyLeftUsd: '10000.00', monthlyLeftUsd: '50000.00', holdUntilTs: null });

      expect((await withdraw(who, '900', '899')).code).toBe(0);
      const [first] = await reviewsOf(who.uid, 'withdrawal');
      await decided(server, financeA.token, { kind: 'withdrawal', id: first!.id, decision: 'approve' }, 'approved');
      expect(await limitsOf(who)).toMatchObject({ dailyLeftUsd: '9100.00', monthlyLeftUsd: '49100.00' });

      const over = await withdraw(who, '9100.01', '9099.01');
      expect(over.code).toBe(ErrorCode.WITHDRAWAL_OVER_LIMIT);
      expect(over.msg).toContain('9100.00');
      expect(over.data).toEqual({ leftUsd: '9100.00' });
      expect(await reviewsOf(who.uid, 'withdrawal')).toHaveLength(1);
      // A rejected withdrawal gives its amount back to the limit.
      expect((await withdraw(who, '9100', '9099')).code).toBe(0);
      const [, second] = await reviewsOf(who.uid, 'withdrawal');
      await decided(server, financeA.token, { kind: 'withdrawal', id: second!.id, decision: 'reject', reason: 'test' }, 'rejected');
      expect((await limitsOf(who)).dailyLeftUsd).toBe('9100.00');
    });

    it('takes two admins to change the limits (proposed, then approved, audited before and after), refusing a month below a day and a higher level below a lower one', async () => {
      const current = ((await call(server, '/v1/staff/config/limits', {}, admin.token)).data as { limits: Record<'none' | 'junior' | 'full', Record<string, string>> }).limits;
      const month = { ...current, junior: { ...current.junior, monthlyWithdrawUsd: '5', dailyWithdrawUsd: '10' } };
      expect((await call(server, '/v1/staff/config/setLimits', { limits: month }, admin.token)).msg).toContain('monthly limit cannot be below');
      const inverted = { ...current, full: { ...current.full, dailyWithdrawUsd: '1' } };
      expect((await call(server, '/v1/staff/config/setLimits', { limits: inverted }, admin.token)).code).toBe(ErrorCode.INCORRECT_PARAMETER_VALUE);
      expect((await call(server, '/v1/staff/config/setLimits', { limits: current }, financeA.token)).code).toBe(ErrorCode.STAFF_ROLE_REQUIRED);

      const raised = { ...current, junior: { ...current.junior, dailyWithdrawUsd: '12000' } };
      const proposed = await call(server, '/v1/staff/config/setLimits', { limits: raised }, admin.token);
      expect(proposed.code, proposed.msg).toBe(0);
      expect(proposed.data).toMatchObject({ status: 'proposed' });
      const { proposalId } = proposed.data as { proposalId: number };
      // One admin's word changes nothing, and the proposer cannot approve it.
      const who = await withdrawer('0');
      expect((await limitsOf(who)).dailyLeftUsd).toBe('10000.00');
      const decide = (token: string, id: number) => call(server, '/v1/staff/config/proposals/decide', { proposalId: id, decision: 'approve', requestId: crypto.randomUUID() }, token);
      expect((await decide(admin.token, proposalId)).code).toBe(ErrorCode.PROPOSAL_OWN);
      expect((await limitsOf(who)).dailyLeftUsd).toBe('10000.00');

      const approved = await decide(secondAdmin.token, proposalId);
      expect(approved.code, approved.msg).toBe(0);
      expect(approved.data).toEqual({ status: 'approved' });
      const audit = await server.database.db.selectFrom('staff_audit').select(['staff_id', 'before', 'after']).where('action', '=', 'config.setLimits').orderBy('id', 'desc').executeTakeFirstOrThrow();
      expect(audit.staff_id).toBe(secondAdmin.staffId);
      expect(audit.before).toMatchObject({ junior: { dailyWithdrawUsd: '10000.00' } });
      expect(audit.after).toMatchObject({ junior: { dailyWithdrawUsd: '12000.00' } });
      expect((await limitsOf(who)).dailyLeftUsd).toBe('12000.00');

      const restore = await call(server, '/v1/staff/config/setLimits', { limits: current }, admin.token);
      expect((await decide(secondAdmin.token, (restore.data as { proposalId: number }).proposalId)).code).toBe(0);
      expect((await limitsOf(who)).dailyLeftUsd).toBe('10000.00');
    });
  });

  describe('cooling-off', () => {
    it('holds withdrawals for 24 hours after a new address (the first one too), answering 1072 with the end', async () => {
      const who = await customer('newaddress');
      await verifyJunior(server, who, compliance.token);
      await fund(who.uid, '500');
      const beforeSave = Date.now();
      expect((await saveAddress(server, who, usdtTrc20.id, who.address)).code).toBe(0);
      const held = await withdraw(who, '100', '99');
      expect(held.code).toBe(ErrorCode.WITHDRAWAL_ON_HOLD);
      const { holdUntilTs } = held.data as { holdUntilTs: number };
      expect(holdUntilTs).toBeGreaterThanOrEqual(beforeSave + dayMs - 1000);
      expect(holdUntilTs).toBeLessThanOrEqual(Date.now() + dayMs);
      expect(held.msg).toContain(new Date(holdUntilTs).toISOString().slice(0, 16).replace('T', ' '));
      expect((await limitsOf(who)).holdUntilTs).toBe(holdUntilTs);
      await waitOutHold(who.uid);
      expect((await limitsOf(who)).holdUntilTs).toBeNull();
      expect((await withdraw(who, '100', '99')).code).toBe(0);
    });

    it('holds withdrawals after a password change and after the second factor is turned on', async () => {
      const who = await withdrawer('500');
      const changed = await call(server, '/v1/waa/user/passwordSubmit', { oldPassword: password, newPassword: 'battery staple 8' }, who.token);
      expect(changed.code, changed.msg).toBe(0);
      const session = await loginByEmail(server, who.email, 'battery staple 8');
      const again = { ...who, token: session.token, aesKey: readAccessToken(session.token)!.aesKey };
      expect((await withdraw(again, '100', '99')).code).toBe(ErrorCode.WITHDRAWAL_ON_HOLD);
      await waitOutHold(who.uid);
      expect((await limitsOf(again)).holdUntilTs).toBeNull();

      const { secret } = (await call(server, '/v1/waa/user/twoFactor/setup', {}, again.token)).data as { secret: string };
      // A secret set up but not turned on changes nothing yet.
      expect((await limitsOf(again)).holdUntilTs).toBeNull();
      expect((await call(server, '/v1/waa/user/twoFactor/enable', { code: totpCode(secret, Date.now()) }, again.token)).code).toBe(0);
      expect((await limitsOf(again)).holdUntilTs).not.toBeNull();
    });
  });

  describe('second factor', () => {
    it('asks the authenticator’s code for a withdrawal and a new address when the customer has one on', async () => {
      const who = await withdrawer('500');
      const { secret } = (await call(server, '/v1/waa/user/twoFactor/setup', {}, who.token)).data as { secret: string };
      const stepMs = 30_000;
      const enabledAt = Date.now();
      expect((await call(server, '/v1/waa/user/twoFactor/enable', { code: totpCode(secret, enabledAt) }, who.token)).code).toBe(0);
      await waitOutHold(who.uid);

      expect((await withdraw(who, '100', '99')).code).toBe(ErrorCode.SECOND_FACTOR_REQUIRED);
      const wrong = totpCode(secret, enabledAt + 10 * stepMs);
      expect((await withdraw(who, '100', '99', { totpCode: wrong })).code).toBe(ErrorCode.INVALID_VERIFICATION_CODE);
      expect((await saveAddress(server, who, usdtTrc20.id, tronAddress())).code).toBe(ErrorCode.SECOND_FACTOR_REQUIRED);
      expect(await reviewsOf(who.uid, 'withdrawal')).toEqual([]);
      // The next step's code (the enabling one is spent): accepted.
      const next = totpCode(secret, enabledAt + stepMs);
      const placed = await withdraw(who, '100', '99', { totpCode: next });
      expect(placed.code, placed.msg).toBe(0);
    });

    /** A customer with the authenticator on and every hold waited out; `code` is the next step's (the enabling one is spent). */
    const withSecondFactor = async () => {
      const who = await withdrawer('500');
      const { secret } = (await call(server, '/v1/waa/user/twoFactor/setup', {}, who.token)).data as { secret: string };
      const enabledAt = Date.now();
      expect((await call(server, '/v1/waa/user/twoFactor/enable', { code: totpCode(secret, enabledAt) }, who.token)).code).toBe(0);
      await waitOutHold(who.uid);
      return { who, code: totpCode(secret, enabledAt + 30_000) };
    };

    it('answers a retried withdrawal (same key, same body, same code) with its first result, and refuses that code to any other request', async () => {
      const { who, code } = await withSecondFactor();
      const body = (num: string, practicalNum: string) => ({
        num,
        practicalNum,
        currencyId: usdtTrc20.currencyId,
        coinId: usdtTrc20.id,
        paymentAddress: encodeField(who.address, who.aesKey),
        locale: 'en',
        totpCode: code,
      });
      const key = crypto.randomUUID();
      // The client sends twice at once (a retry racing the first), then once more after: one withdrawal, three successes.
      const raced = await Promise.all([moneyCall('/v1/waa/withdraw/submit', body('100', '99'), who.token, key), moneyCall('/v1/waa/withdraw/submit', body('100', '99'), who.token, key)]);
      expect(raced.map((answer) => answer.code)).toEqual([0, 0]);
      const retried = await moneyCall('/v1/waa/withdraw/submit', body('100', '99'), who.token, key);
      expect(retried.code, retried.msg).toBe(0);
      expect(await reviewsOf(who.uid, 'withdrawal')).toHaveLength(1);
      // The same key with another body: 1016; the same code on a new key (another request): spent, 1020.
      expect((await moneyCall('/v1/waa/withdraw/submit', body('101', '100'), who.token, key)).code).toBe(ErrorCode.INCORRECT_PARAMETER_VALUE);
      expect((await moneyCall('/v1/waa/withdraw/submit', body('100', '99'), who.token)).code).toBe(ErrorCode.INVALID_VERIFICATION_CODE);
      expect(await reviewsOf(who.uid, 'withdrawal')).toHaveLength(1);
      expect((await ledger.walletBalances(who.uid)).get('USDT')).toBe(money('400'));
    });

    it('answers a retried new address (same key, same body, same code) with its first result, and refuses that code to another address', async () => {
      const { who, code } = await withSecondFactor();
      const address = tronAddress();
      const body = (saved: string) => ({ currencyId: usdtTrc20.id, cryptocurrencyAddress: encodeField(saved, who.aesKey), totpCode: code });
      const key = crypto.randomUUID();
      const raced = await Promise.all([moneyCall('/v1/waa/wallet/crypto/insert', body(address), who.token, key), moneyCall('/v1/waa/wallet/crypto/insert', body(address), who.token, key)]);
      expect(raced.map((answer) => answer.code)).toEqual([0, 0]);
      expect((await moneyCall('/v1/waa/wallet/crypto/insert', body(address), who.token, key)).code).toBe(0);
      const addresses = () => server.database.db.selectFrom('saved_crypto_address').select('id').where('uid', '=', who.uid).execute();
      // The withdrawer's own address and this one.
      expect(await addresses()).toHaveLength(2);
      expect((await moneyCall('/v1/waa/wallet/crypto/insert', body(tronAddress()), who.token)).code).toBe(ErrorCode.INVALID_VERIFICATION_CODE);
      expect((await moneyCall('/v1/waa/wallet/crypto/insert', body(tronAddress()), who.token, key)).code).toBe(ErrorCode.INCORRECT_PARAMETER_VALUE);
      expect(await addresses()).toHaveLength(2);
    });
  });
});
