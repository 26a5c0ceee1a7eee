import { describe, expect, it } from 'vitest';
import { afterCommit, afterRollback, inTransaction } from '../../server/db/after-commit';
import { testBackends, useTestDatabase } from './harness';

describe.each(testBackends())('after-commit effects on $name', (backend) => {
  const database = useTestDatabase(backend);
  const settingOf = async (key: string) => (await database().db.selectFrom('site_setting').select('value').where('key', '=', key).executeTakeFirst())?.value ?? null;


  it('runs what a transaction asked for once it has committed, and never when it rolls back', async () => {
    const heard: string[] = [];
    await inTransaction(database().db, async (trx) => {
      await trx.insertInto('site_setting').values({ key: 'after-commit-a', value: '1' }).execute();
      afterCommit(trx, () => heard.push('committed'));
      // Not yet: the row is not committed.
      expect(heard).toEqual([]);
    });
    expect(heard).toEqual(['committed']);
    expect(await settingOf('after-commit-a')).toBe('1');

    await expect(
      inTransaction(database().db, async (trx) => {
        await trx.insertInto('site_setting').values({ key: 'after-commit-b', value: '1' }).execute();
        afterCommit(trx, () => heard.push('rolled back'));
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(heard).toEqual(['committed']);
    expect(await settingOf('after-commit-b')).toBeNull();
  });

  it('runs every effect even when one fails, then reports the failure; outside a transaction at once', async () => {
    const heard: string[] = [];
    await expect(
      inTransaction(database().db, async (trx) => {
        afterCommit(trx, () => {
          throw new Error('first failed');
        });
        afterCommit(trx, () => heard.push('second'));
      }),
    ).rejects.toThrow('first failed');
    expect(heard).toEqual(['second']);
    afterCommit(database().db, () => heard.push('no transaction'));
    expect(heard).toEqual(['second', 'no transaction']);
  });

  it('undoes what a rolled-back transaction did outside the database before its caller hears why, and never after a commit', async () => {
    const undone: string[] = [];
    await inTransaction(database().db, async (trx) => {
      afterRollback(trx, () => void undone.push('committed one'));
    });
    expect(undone).toEqual([]);
    await expect(
      inTransaction(database().db, async (trx) => {
        afterRollback(trx, async () => {
          await new Promise((resolve) => setTimeout(resolve, 5));
          undone.push('file removed');
        });
        afterRollback(trx, () => {
          throw new Error('undo failed');
        });
        afterRollback(trx, () => void undone.push('second undo'));
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    // Awaited before the refusal reached the caller; a failing undo does not stop the next, nor replace the reason.
    expect(undone).toEqual(['file removed', 'second undo']);
    afterRollback(database().db, () => void undone.push('no transaction'));
    expect(undone).toEqual(['file removed', 'second undo']);
  });

  it('refuses a transaction it cannot see commit', async () => {
    await expect(database().db.transaction().execute(async (trx) => afterCommit(trx, () => undefined))).rejects.toThrow(/inTransaction/);
    await expect(database().db.transaction().execute(async (trx) => afterRollback(trx, () => undefined))).rejects.toThrow(/inTransaction/);
  });
});
