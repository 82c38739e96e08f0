/** The operator's credit balance on the service: reserve at registration, deduct or release at the end. */
export interface OperatorBalance {
  available: number;
  reserved: number;
  spent: number;
}

export class OperatorAccount {
  private state: OperatorBalance;

  constructor(initial: number) {
    this.state = { available: initial, reserved: 0, spent: 0 };
  }

  balance(): OperatorBalance {
    return { ...this.state };
  }

  reserve(amount: number): boolean {
    if (amount > this.state.available) return false;
    this.state.available -= amount;
    this.state.reserved += amount;
    return true;
  }

  /** Deducts `amount` of a reservation of `reserved`; the rest goes back to available. */
  settle(reserved: number, amount: number): void {
    const charged = Math.min(reserved, amount);
    this.state.reserved -= reserved;
    this.state.spent += charged;
    this.state.available += reserved - charged;
  }

  release(reserved: number): void {
    this.settle(reserved, 0);
  }

  grant(amount: number): void {
    this.state.available += amount;
  }
}
