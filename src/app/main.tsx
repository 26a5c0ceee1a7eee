// First: the content security policy forbids eval (see the module).
import '../shared/api/zod-jitless';
import { createRoot } from 'react-dom/client';
import { boot } from './boot/boot';
import './styles/app.css';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root');
void boot(createRoot(container));
