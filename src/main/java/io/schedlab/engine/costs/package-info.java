/** The cost model: every time cost and rate factor the simulator charges, each a parameter with a documented default and source. */
package io.schedlab.engine.costs;
