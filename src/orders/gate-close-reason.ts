/** The kill switch's reason, with what tripped it. */
export type KillSwitchReason = `kill switch: ${string}`;

/** Why the order gate closed: no place leaves after either. */
export type GateCloseReason = 'shutdown' | KillSwitchReason;

export function killSwitchReason(tripped: string): KillSwitchReason {
  return `kill switch: ${tripped}`;
}
