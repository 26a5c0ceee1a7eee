import { useLocation } from 'wouter';
import { useIsDesktop } from '../../layouts/use-viewport';
import { selectedSymbolSignal } from '../workspace/selection';

/** Opens a product: its chart page on phones; on desktop it becomes the workspace's product. */
export function useOpenProduct(): (symbol: string) => void {
  const [, navigate] = useLocation();
  const isDesktop = useIsDesktop();
  return (symbol) => {
    if (isDesktop) {
      selectedSymbolSignal.value = symbol;
      navigate('/');
    } else navigate(`/${symbol}/chart`);
  };
}
