import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { useApp } from '../../app-context';

/** The brand's optional trade-type icons: 5 columns when there are more than 4, else 4. */
export function TradeTypeGrid() {
  const { t } = useTranslation();
  const { config } = useApp();
  const types = config.tradeTypes;
  if (types.length === 0) return null;
  return (
    <nav className="trade-type-grid" aria-label={t('home.trade_types')} style={{ gridTemplateColumns: `repeat(${types.length > 4 ? 5 : 4}, 1fr)` }}>
      {types.map((type) => (
        <Link key={type.key} href={type.route} className="trade-type">
          <img src={type.icon} alt="" width={36} height={36} />
          <span>{t(`home.trade_type_${type.key}`, { defaultValue: type.key })}</span>
        </Link>
      ))}
    </nav>
  );
}
