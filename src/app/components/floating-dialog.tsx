import { useEffect, useId, useRef, useState, type KeyboardEvent, type PointerEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from './icons';

const margin = 8;
const keyboardStepPx = 24;

function clamp(value: number, low: number, high: number) {
  return Math.min(Math.max(value, low), Math.max(low, high));
}

/**
 * A non-modal panel that floats over the page and can be dragged by its title bar (or
 * moved with the arrow keys when the title bar has focus); it stays inside the window.
 */
export function FloatingDialog(props: { title: string; onClose: () => void; children: ReactNode; widthPx?: number; /** Its body also describes it (a result read out with its title). */ describe?: boolean }) {
  const { t } = useTranslation();
  const titleId = useId();
  const bodyId = useId();
  const panel = useRef<HTMLDivElement>(null);
  const drag = useRef<{ dx: number; dy: number } | null>(null);
  const width = Math.min(props.widthPx ?? 360, window.innerWidth - 2 * margin);
  const [position, setPosition] = useState(() => ({ x: window.innerWidth - width - 16, y: Math.max(margin, window.innerHeight - 560) }));

  function place(x: number, y: number) {
    const box = panel.current?.getBoundingClientRect();
    setPosition({
      x: clamp(x, margin, window.innerWidth - (box?.width ?? width) - margin),
      y: clamp(y, margin, window.innerHeight - (box?.height ?? 200) - margin),
    });
  }

  useEffect(() => {
    const keepInside = () => setPosition((current) => ({ x: clamp(current.x, margin, window.innerWidth - width - margin), y: clamp(current.y, margin, window.innerHeight - 120) }));
    window.addEventListener('resize', keepInside);
    return () => window.removeEventListener('resize', keepInside);
  }, [width]);

  function onPointerDown(event: PointerEvent<HTMLElement>) {
    if ((event.target as HTMLElement).closest('button')) return;
    drag.current = { dx: event.clientX - position.x, dy: event.clientY - position.y };
    event.currentTarget.setPointerCapture(event.pointerId);
  }
  function onPointerMove(event: PointerEvent<HTMLElement>) {
    if (drag.current) place(event.clientX - drag.current.dx, event.clientY - drag.current.dy);
  }
  function onPointerUp() {
    drag.current = null;
  }
  function onKeyDown(event: KeyboardEvent<HTMLElement>) {
    const moves: Record<string, [number, number]> = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    const move = moves[event.key];
    if (move) {
      event.preventDefault();
      place(position.x + move[0] * keyboardStepPx, position.y + move[1] * keyboardStepPx);
    } else if (event.key === 'Escape') props.onClose();
  }

  return (
    <div
      ref={panel}
      className="floating-dialog"
      role="dialog"
      aria-labelledby={titleId}
      aria-describedby={props.describe ? bodyId : undefined}
      style={{ width, transform: `translate(${position.x}px, ${position.y}px)` }}
      data-x={Math.round(position.x)}
      data-y={Math.round(position.y)}
    >
      <header
        className="floating-dialog-bar"
        tabIndex={0}
        aria-label={t('service.drag_hint')}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerCancel={onPointerUp}
        onKeyDown={onKeyDown}
      >
        <h2 id={titleId}>{props.title}</h2>
        <button type="button" className="icon-button" aria-label={t('common.close')} onClick={props.onClose}>
          <Icon name="close" />
        </button>
      </header>
      <div id={bodyId} className="floating-dialog-body">
        {props.children}
      </div>
    </div>
  );
}
