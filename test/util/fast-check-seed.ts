/**
 * Every property test runs with a fixed seed unless it sets its own: the same inputs on every run and machine, so a
 * failure reproduces and the assertion count CI prints is the same from run to run. (A property test that wants
 * other inputs sets `seed` in its own `fc.assert` parameters.)
 */
import fc from 'fast-check';

fc.configureGlobal({ ...fc.readConfigureGlobal(), seed: 20261126 });
