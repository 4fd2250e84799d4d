// gate-work.js: the workload of bench/calibrate-gate.sh (issue 36). Four functions of
// fixed work, called in turn many times, so that each holds about a quarter of the CPU
// profile and the machine's drift reaches all four alike. The slower version is this
// file with N_C raised by 10% (calibrate-gate.sh makes it with sed): a real code change.
'use strict';

const N_A = 6000000;
const N_B = 6000000;
const N_C = 6000000;
const N_D = 6000000;
const ROUNDS = 200;

function lcg(n, x) {
	for (let i = 0; i < n; i++)
		x = (x * 1103515245 + 12345) % 2147483648;
	return x;
}

function stepA(n, x) { return lcg(n, x + 1); }
function stepB(n, x) { return lcg(n, x + 2); }
function stepC(n, x) { return lcg(n, x + 3); }
function stepD(n, x) { return lcg(n, x + 4); }

let x = 7;
for (let r = 0; r < ROUNDS; r++) {
	x = stepA(N_A / ROUNDS, x);
	x = stepB(N_B / ROUNDS, x);
	x = stepC(N_C / ROUNDS, x);
	x = stepD(N_D / ROUNDS, x);
}
if (x < 0)
	console.log(x);
