import { runVenueActionBench } from './venue-actions.ts';
runVenueActionBench({ boundaries: ['typed'], runs: 3 }).then((r) => console.log(JSON.stringify(r)));
