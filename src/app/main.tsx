import { createRoot } from 'react-dom/client';
import { boot } from './boot/boot';
import { desktopMinWidthPx } from './layouts/viewport-rules';
import { prefetchDesktop } from './routing/desktop-prefetch';
import './styles/app.css';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root');
// A desktop fetches its frame and terminal while the app starts (the router asks again once it knows).
if (window.matchMedia(`(min-width: ${desktopMinWidthPx}px)`).matches) prefetchDesktop();
void boot(createRoot(container));
