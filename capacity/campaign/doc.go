// Package campaign runs `lockbench capacity`: it checks a capacity config against the
// matrix rules `run` applies, then searches every strategy under every condition on
// live servers, one topology per strategy, recording each probe as a cell of the
// results folder and each search in capacity.json as it ends.
package campaign
