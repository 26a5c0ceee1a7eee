// First: the content security policy forbids eval (see the module).
import '../shared/api/zod-jitless';
import { createRoot } from 'react-dom/client';
import { bootConsole } from './boot';
import '../app/styles/app.css';
import './styles/staff.css';

const container = document.getElementById('root');
if (!container) throw new Error('staff/index.html has no #root');
void bootConsole(createRoot(container));
