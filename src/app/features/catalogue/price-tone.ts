/** 'up', 'down' or '' for a change percent string; the colours follow the brand's up/down template. */
export function changeTone(percent: string): 'up' | 'down' | '' {
  if (percent.startsWith('-')) return 'down';
  return /[1-9]/.test(percent) ? 'up' : '';
}
