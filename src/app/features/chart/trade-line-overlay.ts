import { registerOverlay, type OverlayFigure } from 'klinecharts';

/** The overlay names of what the trader holds: a price line across the pane, and an option's end time. */
export const tradeLineOverlay = 'tradewebTradeLine';
export const timeMarkerOverlay = 'tradewebTimeMarker';

/** What a drawn line shows (the overlay's extendData). */
export interface TradeLineLook {
  label: string;
  colour: string;
  /** Stop loss, take profit and pending lines are dashed; an entry is solid. */
  dashed: boolean;
  /** The label's background: the colour's tone that white text reads on (`--x-fill`). */
  labelColour: string;
  /** Where the label sits: on the line, or just above it (options: one started at a position's price leaves that position's label readable). */
  labelAt: 'on' | 'above';
}

let registered = false;

/** Registers the two overlays once (the library's registry is global). */
export function registerTradeOverlays() {
  if (registered) return;
  registered = true;
  registerOverlay({
    name: tradeLineOverlay,
    totalStep: 2,
    needDefaultPointFigure: false,
    needDefaultXAxisFigure: false,
    needDefaultYAxisFigure: false,
    createPointFigures: ({ overlay, coordinates, bounding }): OverlayFigure[] => {
      const look = overlay.extendData as TradeLineLook;
      const y = coordinates[0]?.y;
      if (y === undefined || !Number.isFinite(y)) return [];
      return [
        {
          key: 'line',
          type: 'line',
          attrs: { coordinates: [{ x: 0, y }, { x: bounding.width, y }] },
          styles: { style: look.dashed ? 'dashed' : 'solid', color: look.colour, size: 1, dashedValue: [4, 3] },
        },
        {
          key: 'label',
          type: 'text',
          attrs: { x: 6, y: look.labelAt === 'above' ? y - 2 : y, text: look.label, align: 'left', baseline: look.labelAt === 'above' ? 'bottom' : 'middle' },
          styles: { color: '#ffffff', backgroundColor: look.labelColour, borderColor: look.labelColour, borderRadius: 3, paddingLeft: 5, paddingRight: 5, paddingTop: 3, paddingBottom: 3, size: 11 },
        },
      ];
    },
  });
  registerOverlay({
    name: timeMarkerOverlay,
    totalStep: 2,
    needDefaultPointFigure: false,
    needDefaultXAxisFigure: false,
    needDefaultYAxisFigure: false,
    createPointFigures: ({ overlay, coordinates, bounding }): OverlayFigure[] => {
      const look = overlay.extendData as TradeLineLook;
      const x = coordinates[0]?.x;
      if (x === undefined || !Number.isFinite(x)) return [];
      return [
        { key: 'line', type: 'line', attrs: { coordinates: [{ x, y: 0 }, { x, y: bounding.height }] }, styles: { style: 'dashed', color: look.colour, size: 1, dashedValue: [4, 3] } },
        {
          key: 'label',
          type: 'text',
          attrs: { x, y: bounding.height - 4, text: look.label, align: 'right', baseline: 'bottom' },
          styles: { color: '#ffffff', backgroundColor: look.labelColour, borderColor: look.labelColour, borderRadius: 3, paddingLeft: 4, paddingRight: 4, paddingTop: 2, paddingBottom: 2, size: 11 },
        },
      ];
    },
  });
}
