package io.schedlab.engine.model;

/** Run state of a vCPU, as in Xen's RUNSTATE_running/runnable/blocked/offline. */
public enum VcpuState { RUNNING, RUNNABLE, BLOCKED, OFFLINE }
