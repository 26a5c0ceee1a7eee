import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TextField } from '../../app/components/text-field';
import { configLimits, configSetLimits } from '../../shared/api/staff';
import { verificationLevels, type LevelLimits, type LimitsByLevel } from '../../shared/money/withdrawal-limits';
import { Card } from '../components/section';
import { runAction } from '../session/run-action';
import { useLoad } from '../session/use-load';
import { useStaff } from '../session/staff-context';
import { useFormat } from '../session/use-format';
import { holdDuration } from './config-rules';

const limitFields = ['dailyWithdrawUsd', 'monthlyWithdrawUsd', 'depositMaxUsd'] as const satisfies readonly (keyof LevelLimits)[];

/**
 * The limits by verification level (issue 31): per level the withdrawals allowed over 24
 * hours and 30 days and the largest single deposit, in USD, with the server's settings
 * around them (every deposit's maximum, the cooling-off, the level a withdrawal needs). The
 * server checks the rules (a month at least a day, a higher level at least a lower one).
 */
export function LimitsTab() {
  const { t } = useTranslation();
  const { client } = useStaff();
  const format = useFormat();
  const loaded = useLoad(() => client.call(configLimits, {}), []);
  const [draft, setDraft] = useState<LimitsByLevel | null>(null);
  const shown = draft ?? loaded.data?.limits ?? null;
  if (!shown || !loaded.data) return <p>{t('common.loading')}</p>;
  const settings = loaded.data;
  const hold = holdDuration(settings.holdSeconds);
  const change = (level: (typeof verificationLevels)[number], field: (typeof limitFields)[number], value: string) =>
    setDraft({ ...shown, [level]: { ...shown[level], [field]: value.trim() } });
  return (
    <Card title={t('staff.config.tabs.limits')}>
      <p className="staff-muted">{t('staff.limits.explain')}</p>
      <p className="staff-muted" data-testid="limits-settings">
        {t('staff.limits.settings', { depositMax: format.amount(settings.depositMaxUsd), hold: t(`staff.limits.hold_${hold.unit}`, { count: hold.count }), level: t(`staff.limits.levels.${settings.withdrawMinLevel}`) })}
      </p>
      <div className="staff-limits">
        {verificationLevels.map((level) => (
          <fieldset key={level} className="staff-limits-level" data-testid={`limits-${level}`}>
            <legend>{t(`staff.limits.levels.${level}`)}</legend>
            {limitFields.map((field) => (
              <TextField key={field} label={t(`staff.limits.${field}`)} value={shown[level][field]} inputMode="decimal" inputClassName="numeric" maxLength={31} onChange={(value) => change(level, field, value)} />
            ))}
          </fieldset>
        ))}
      </div>
      <button
        type="button"
        className="button primary"
        disabled={draft === null}
        onClick={() => void runAction(() => client.call(configSetLimits, { limits: shown }), (answer) => t('staff.proposals.proposed_done', { id: answer.proposalId })).then((done) => done && (setDraft(null), loaded.reload()))}
      >
        {t('staff.common.save')}
      </button>
    </Card>
  );
}
