/** The reaction on a message turned away again for the reason its author was just told (`markTurnedAway`). */
export const TURNED_AWAY = '⏳';
