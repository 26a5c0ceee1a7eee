import fs from 'node:fs';

/** Linux clock ticks per second for /proc times (USER_HZ, 100 on every mainstream kernel). */
const ticksPerSecond = 100;

interface ProcessStat {
  pid: number;
  ppid: number;
  cpuSeconds: number;
}

function readStat(pid: number): ProcessStat | null {
  try {
    const text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name is in parentheses and may contain spaces: split after the last ')'.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    const ppid = Number(fields[1]);
    const utime = Number(fields[11]);
    const stime = Number(fields[12]);
    return { pid, ppid, cpuSeconds: (utime + stime) / ticksPerSecond };
  } catch {
    return null; // gone between listing and reading
  }
}

function allProcesses(): ProcessStat[] {
  return fs
    .readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map((name) => readStat(Number(name)))
    .filter((stat): stat is ProcessStat => stat !== null);
}

function commandLine(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return '';
  }
}

/**
 * CPU seconds used so far by a process tree: the processes whose command line contains
 * `root` (a marker string) or whose pid is `root`, and all their descendants.
 */
export function processTreeCpuSeconds(root: string | number): number {
  const processes = allProcesses();
  const included = new Set(
    processes.filter((process) => (typeof root === 'number' ? process.pid === root : commandLine(process.pid).includes(root))).map((process) => process.pid),
  );
  let grew = true;
  while (grew) {
    grew = false;
    for (const process of processes) {
      if (!included.has(process.pid) && included.has(process.ppid)) {
        included.add(process.pid);
        grew = true;
      }
    }
  }
  return processes.filter((process) => included.has(process.pid)).reduce((sum, process) => sum + process.cpuSeconds, 0);
}
