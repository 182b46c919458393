// Package treelint holds checks over the module's source tree that no compiler makes.
package treelint
