/**
 * What the service knows about its database as such, apart from any feature: telling a database that
 * cannot be reached from other errors ({@link io.schedlab.database.DatabaseOutage}).
 */
package io.schedlab.database;
