package io.schedlab.experiments;

/** The data directory's file system is below the free space submissions need (507). */
public class StorageFullException extends RuntimeException {

    public StorageFullException(long freeBytes, long minFreeBytes) {
        super("the service's storage is almost full (" + (freeBytes >> 20) + " MiB free, submissions need "
                + (minFreeBytes >> 20) + " MiB: schedlab.limits.min-free-disk-mb); nothing was stored, every accepted"
                + " run is kept; retry once space has been freed");
    }
}
