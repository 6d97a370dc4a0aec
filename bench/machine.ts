import os from 'node:os';

/** Where a figure was measured. */
export interface MachineInfo {
  readonly cpu: string;
  readonly cores: number;
  readonly ramGiB: number;
  readonly node: string;
  readonly platform: string;
}

export function machineInfo(): MachineInfo {
  return {
    cpu: (os.cpus()[0]?.model ?? 'unknown CPU').trim(),
    cores: os.cpus().length,
    ramGiB: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    platform: `${os.platform()} ${os.arch()}`,
  };
}

/** One line describing where a figure was measured. */
export function machineLine(m: MachineInfo = machineInfo()): string {
  return `${m.cpu}, ${m.cores} cores, ${m.ramGiB} GiB, Node ${m.node}, ${m.platform}`;
}
