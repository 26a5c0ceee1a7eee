import { useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** Tabs per product type with a marker that slides under the selected one. */
export function ProductTypeTabs(props: { types: readonly number[]; selected: number; onSelect: (type: number) => void }) {
  const { t, i18n } = useTranslation();
  const listRef = useRef<HTMLDivElement>(null);
  const [marker, setMarker] = useState({ left: 0, width: 0 });

  // Tabs are as wide as their labels (which depend on the language): measure the selected one.
  useLayoutEffect(() => {
    const list = listRef.current;
    const tab = list?.querySelector<HTMLElement>(`[data-type="${props.selected}"]`);
    if (!list || !tab) return;
    const place = () => setMarker({ left: tab.offsetLeft, width: tab.offsetWidth });
    place();
    tab.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
    const observer = new ResizeObserver(place);
    observer.observe(list);
    return () => observer.disconnect();
  }, [props.selected, props.types, i18n.language]);

  return (
    <div className="type-tabs" role="tablist" aria-label={t('market.product_types')} ref={listRef}>
      {props.types.map((type) => (
        <button
          key={type}
          type="button"
          role="tab"
          id={`type-tab-${type}`}
          data-type={type}
          aria-selected={type === props.selected}
          aria-controls="quote-panel"
          className="type-tab"
          onClick={() => props.onSelect(type)}
        >
          {t(`market.type_${type}`)}
        </button>
      ))}
      <span className="type-tab-marker" aria-hidden="true" style={{ width: marker.width, transform: `translateX(${marker.left}px)` }} />
    </div>
  );
}
