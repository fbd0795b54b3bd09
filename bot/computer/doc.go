// Package computer runs the computer player's turns (Runner) on top of
// the game's life (package bot): it registers its wake-up with the
// game's Service when it is made (gameplay.Service.OnComputerGame), searches
// with package ai off the interaction path, and stores each move, offer
// or answer through the Service as a person's, with the version its
// search started from. Who the computer is, the challenges to it and the
// posts of its turns are the game's (gameplay.Service.SetComputer,
// ComputerID, HoldComputer); this package owns only playing. It depends
// on bot, ai and rules and on no other feature package.
package computer
